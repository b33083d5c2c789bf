from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.replay_accepted import ReplayAccepted
from ...models.replay_in import ReplayIn
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: ReplayIn,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/endpoints/{id}/replay".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ReplayAccepted | None:
    if response.status_code == 202:
        response_202 = ReplayAccepted.from_dict(response.json())

        return response_202

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
) -> Response[Problem | ReplayAccepted]:
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
    body: ReplayIn,
    idempotency_key: str,
) -> Response[Problem | ReplayAccepted]:
    """Replay a time range

     Sends the endpoint's events created in [`since`, `until`] again (oldest first), as new deliveries
    with trigger `replay` that keep the original `webhook-id`. `since` may reach at most 7 days back and
    the range may hold at most 10,000 events. Requires an `Idempotency-Key`: repeating it with the same
    body answers the first answer and replays nothing more.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (str):
        body (ReplayIn): `POST /v1/endpoints/{id}/replay`: the time range whose events go again.
            Example: {'since': '2026-11-30T06:00:00Z', 'until': '2026-11-30T07:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReplayAccepted]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ReplayIn,
    idempotency_key: str,
) -> Problem | ReplayAccepted | None:
    """Replay a time range

     Sends the endpoint's events created in [`since`, `until`] again (oldest first), as new deliveries
    with trigger `replay` that keep the original `webhook-id`. `since` may reach at most 7 days back and
    the range may hold at most 10,000 events. Requires an `Idempotency-Key`: repeating it with the same
    body answers the first answer and replays nothing more.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (str):
        body (ReplayIn): `POST /v1/endpoints/{id}/replay`: the time range whose events go again.
            Example: {'since': '2026-11-30T06:00:00Z', 'until': '2026-11-30T07:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReplayAccepted
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ReplayIn,
    idempotency_key: str,
) -> Response[Problem | ReplayAccepted]:
    """Replay a time range

     Sends the endpoint's events created in [`since`, `until`] again (oldest first), as new deliveries
    with trigger `replay` that keep the original `webhook-id`. `since` may reach at most 7 days back and
    the range may hold at most 10,000 events. Requires an `Idempotency-Key`: repeating it with the same
    body answers the first answer and replays nothing more.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (str):
        body (ReplayIn): `POST /v1/endpoints/{id}/replay`: the time range whose events go again.
            Example: {'since': '2026-11-30T06:00:00Z', 'until': '2026-11-30T07:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReplayAccepted]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ReplayIn,
    idempotency_key: str,
) -> Problem | ReplayAccepted | None:
    """Replay a time range

     Sends the endpoint's events created in [`since`, `until`] again (oldest first), as new deliveries
    with trigger `replay` that keep the original `webhook-id`. `since` may reach at most 7 days back and
    the range may hold at most 10,000 events. Requires an `Idempotency-Key`: repeating it with the same
    body answers the first answer and replays nothing more.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (str):
        body (ReplayIn): `POST /v1/endpoints/{id}/replay`: the time range whose events go again.
            Example: {'since': '2026-11-30T06:00:00Z', 'until': '2026-11-30T07:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReplayAccepted
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
