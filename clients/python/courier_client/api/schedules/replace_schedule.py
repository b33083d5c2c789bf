from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.schedule_in_type_0 import ScheduleInType0
from ...models.schedule_in_type_1 import ScheduleInType1
from ...models.schedule_in_type_2 import ScheduleInType2
from ...models.schedule_in_type_3 import ScheduleInType3
from ...models.schedule_in_type_4 import ScheduleInType4
from ...models.schedule_in_type_5 import ScheduleInType5
from ...models.schedule_out import ScheduleOut
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 | ScheduleInType4 | ScheduleInType5,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/schedules/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, ScheduleInType0):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, ScheduleInType1):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, ScheduleInType2):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, ScheduleInType3):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, ScheduleInType4):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | ScheduleOut | None:
    if response.status_code == 200:
        response_200 = ScheduleOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | ScheduleOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 | ScheduleInType4 | ScheduleInType5,
) -> Response[Problem | ScheduleOut]:
    """Replace a schedule

     Greatwait's `schedules.replace`: new target, recurrence, window and data under the same id (the
    status is kept). The next occurrences use them; this is how an occurrence that settled
    `payload_unavailable` (remediation `replace_payload`) is fixed.

    Args:
        id (str): A schedule id: `sch_` and a ULID.
        body (ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 |
            ScheduleInType4 | ScheduleInType5): `POST /v1/schedules` and `PUT /v1/schedules/{id}`:
            exactly one of `cron` (with an
            optional `timezone`), `rate` and `at`; and exactly one target: `endpointId`, or
            `type` (with an optional `applicationId`) to route each occurrence by
            subscription. Every field is checked by the handler so that a wrong one answers
            400 naming it. Example: {'cron': 'cron(0 9 * * ? *)', 'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload': {'report': 'daily'}, 'timezone':
            'Europe/Berlin', 'type': 'report.daily'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScheduleOut]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 | ScheduleInType4 | ScheduleInType5,
) -> Problem | ScheduleOut | None:
    """Replace a schedule

     Greatwait's `schedules.replace`: new target, recurrence, window and data under the same id (the
    status is kept). The next occurrences use them; this is how an occurrence that settled
    `payload_unavailable` (remediation `replace_payload`) is fixed.

    Args:
        id (str): A schedule id: `sch_` and a ULID.
        body (ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 |
            ScheduleInType4 | ScheduleInType5): `POST /v1/schedules` and `PUT /v1/schedules/{id}`:
            exactly one of `cron` (with an
            optional `timezone`), `rate` and `at`; and exactly one target: `endpointId`, or
            `type` (with an optional `applicationId`) to route each occurrence by
            subscription. Every field is checked by the handler so that a wrong one answers
            400 naming it. Example: {'cron': 'cron(0 9 * * ? *)', 'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload': {'report': 'daily'}, 'timezone':
            'Europe/Berlin', 'type': 'report.daily'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScheduleOut
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 | ScheduleInType4 | ScheduleInType5,
) -> Response[Problem | ScheduleOut]:
    """Replace a schedule

     Greatwait's `schedules.replace`: new target, recurrence, window and data under the same id (the
    status is kept). The next occurrences use them; this is how an occurrence that settled
    `payload_unavailable` (remediation `replace_payload`) is fixed.

    Args:
        id (str): A schedule id: `sch_` and a ULID.
        body (ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 |
            ScheduleInType4 | ScheduleInType5): `POST /v1/schedules` and `PUT /v1/schedules/{id}`:
            exactly one of `cron` (with an
            optional `timezone`), `rate` and `at`; and exactly one target: `endpointId`, or
            `type` (with an optional `applicationId`) to route each occurrence by
            subscription. Every field is checked by the handler so that a wrong one answers
            400 naming it. Example: {'cron': 'cron(0 9 * * ? *)', 'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload': {'report': 'daily'}, 'timezone':
            'Europe/Berlin', 'type': 'report.daily'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScheduleOut]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 | ScheduleInType4 | ScheduleInType5,
) -> Problem | ScheduleOut | None:
    """Replace a schedule

     Greatwait's `schedules.replace`: new target, recurrence, window and data under the same id (the
    status is kept). The next occurrences use them; this is how an occurrence that settled
    `payload_unavailable` (remediation `replace_payload`) is fixed.

    Args:
        id (str): A schedule id: `sch_` and a ULID.
        body (ScheduleInType0 | ScheduleInType1 | ScheduleInType2 | ScheduleInType3 |
            ScheduleInType4 | ScheduleInType5): `POST /v1/schedules` and `PUT /v1/schedules/{id}`:
            exactly one of `cron` (with an
            optional `timezone`), `rate` and `at`; and exactly one target: `endpointId`, or
            `type` (with an optional `applicationId`) to route each occurrence by
            subscription. Every field is checked by the handler so that a wrong one answers
            400 naming it. Example: {'cron': 'cron(0 9 * * ? *)', 'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload': {'report': 'daily'}, 'timezone':
            'Europe/Berlin', 'type': 'report.daily'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScheduleOut
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
