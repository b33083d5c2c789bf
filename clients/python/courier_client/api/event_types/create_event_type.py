from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_type_in import EventTypeIn
from ...models.event_type_out import EventTypeOut
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: EventTypeIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/event-types",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventTypeOut | Problem | None:
    if response.status_code == 201:
        response_201 = EventTypeOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[EventTypeOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EventTypeIn,
) -> Response[EventTypeOut | Problem]:
    """Declare an event type

     A kind of event you send, by name, with an optional JSON Schema (draft 2020-12) for its payloads:
    from then on `POST /v1/events` (and each entry of a batch) with this `type` refuses a payload that
    does not match it with 422 `payload_invalid`. Events of types never declared are accepted as they
    are. Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (EventTypeIn): `POST /v1/event-types`: a kind of event, with an optional payload
            schema. Example: {'description': 'An invoice was paid.', 'example': {'invoiceId':
            'inv_1'}, 'name': 'invoice.paid', 'schema': {'required': ['invoiceId'], 'type':
            'object'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: EventTypeIn,
) -> EventTypeOut | Problem | None:
    """Declare an event type

     A kind of event you send, by name, with an optional JSON Schema (draft 2020-12) for its payloads:
    from then on `POST /v1/events` (and each entry of a batch) with this `type` refuses a payload that
    does not match it with 422 `payload_invalid`. Events of types never declared are accepted as they
    are. Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (EventTypeIn): `POST /v1/event-types`: a kind of event, with an optional payload
            schema. Example: {'description': 'An invoice was paid.', 'example': {'invoiceId':
            'inv_1'}, 'name': 'invoice.paid', 'schema': {'required': ['invoiceId'], 'type':
            'object'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeOut | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EventTypeIn,
) -> Response[EventTypeOut | Problem]:
    """Declare an event type

     A kind of event you send, by name, with an optional JSON Schema (draft 2020-12) for its payloads:
    from then on `POST /v1/events` (and each entry of a batch) with this `type` refuses a payload that
    does not match it with 422 `payload_invalid`. Events of types never declared are accepted as they
    are. Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (EventTypeIn): `POST /v1/event-types`: a kind of event, with an optional payload
            schema. Example: {'description': 'An invoice was paid.', 'example': {'invoiceId':
            'inv_1'}, 'name': 'invoice.paid', 'schema': {'required': ['invoiceId'], 'type':
            'object'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: EventTypeIn,
) -> EventTypeOut | Problem | None:
    """Declare an event type

     A kind of event you send, by name, with an optional JSON Schema (draft 2020-12) for its payloads:
    from then on `POST /v1/events` (and each entry of a batch) with this `type` refuses a payload that
    does not match it with 422 `payload_invalid`. Events of types never declared are accepted as they
    are. Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (EventTypeIn): `POST /v1/event-types`: a kind of event, with an optional payload
            schema. Example: {'description': 'An invoice was paid.', 'example': {'invoiceId':
            'inv_1'}, 'name': 'invoice.paid', 'schema': {'required': ['invoiceId'], 'type':
            'object'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
