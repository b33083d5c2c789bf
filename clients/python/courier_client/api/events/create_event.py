from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_accepted import EventAccepted
from ...models.event_in import EventIn
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: EventIn,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/events",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EventAccepted | Problem | None:
    if response.status_code == 202:
        response_202 = EventAccepted.from_dict(response.json())

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
) -> Response[EventAccepted | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EventIn,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[EventAccepted | Problem]:
    """Send an event

     Creates one delivery per named endpoint and queues the first attempt of each (or schedules it for a
    future `plannedAt`). An endpoint that is not taking events (gavAI breaker open, SmartChat paused or
    disabled) gets a `dropped` delivery, visible in the audit log. With an `Idempotency-Key`, repeating
    the same body answers the first answer and creates nothing new; if the first request failed before
    storing the event, the repeat stores it under the ids that answer promised and queues it, so
    retrying with the same key is always safe. Without named endpoints the event is routed by
    subscription through the subscription index (see `FanoutProgress`); an event that matches nothing is
    still kept in the audit log. Fan-out deliveries have ids derived from the event and the endpoint, so
    a redone fan-out step writes each once.

    Args:
        idempotency_key (None | str | Unset):
        body (EventIn): `POST /v1/events`. Name endpoints with `endpointId` or `endpointIds` (not
            both),
            or name neither and give `type` (with `applicationId` for an application's
            endpoints, none for the tenant's endpoints without an application) to route the
            event by subscription: every endpoint whose `filterTypes` and `channels` want it
            gets a delivery. Example: {'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload':
            {'amount': 4200, 'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventAccepted | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: EventIn,
    idempotency_key: None | str | Unset = UNSET,
) -> EventAccepted | Problem | None:
    """Send an event

     Creates one delivery per named endpoint and queues the first attempt of each (or schedules it for a
    future `plannedAt`). An endpoint that is not taking events (gavAI breaker open, SmartChat paused or
    disabled) gets a `dropped` delivery, visible in the audit log. With an `Idempotency-Key`, repeating
    the same body answers the first answer and creates nothing new; if the first request failed before
    storing the event, the repeat stores it under the ids that answer promised and queues it, so
    retrying with the same key is always safe. Without named endpoints the event is routed by
    subscription through the subscription index (see `FanoutProgress`); an event that matches nothing is
    still kept in the audit log. Fan-out deliveries have ids derived from the event and the endpoint, so
    a redone fan-out step writes each once.

    Args:
        idempotency_key (None | str | Unset):
        body (EventIn): `POST /v1/events`. Name endpoints with `endpointId` or `endpointIds` (not
            both),
            or name neither and give `type` (with `applicationId` for an application's
            endpoints, none for the tenant's endpoints without an application) to route the
            event by subscription: every endpoint whose `filterTypes` and `channels` want it
            gets a delivery. Example: {'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload':
            {'amount': 4200, 'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventAccepted | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EventIn,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[EventAccepted | Problem]:
    """Send an event

     Creates one delivery per named endpoint and queues the first attempt of each (or schedules it for a
    future `plannedAt`). An endpoint that is not taking events (gavAI breaker open, SmartChat paused or
    disabled) gets a `dropped` delivery, visible in the audit log. With an `Idempotency-Key`, repeating
    the same body answers the first answer and creates nothing new; if the first request failed before
    storing the event, the repeat stores it under the ids that answer promised and queues it, so
    retrying with the same key is always safe. Without named endpoints the event is routed by
    subscription through the subscription index (see `FanoutProgress`); an event that matches nothing is
    still kept in the audit log. Fan-out deliveries have ids derived from the event and the endpoint, so
    a redone fan-out step writes each once.

    Args:
        idempotency_key (None | str | Unset):
        body (EventIn): `POST /v1/events`. Name endpoints with `endpointId` or `endpointIds` (not
            both),
            or name neither and give `type` (with `applicationId` for an application's
            endpoints, none for the tenant's endpoints without an application) to route the
            event by subscription: every endpoint whose `filterTypes` and `channels` want it
            gets a delivery. Example: {'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload':
            {'amount': 4200, 'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventAccepted | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: EventIn,
    idempotency_key: None | str | Unset = UNSET,
) -> EventAccepted | Problem | None:
    """Send an event

     Creates one delivery per named endpoint and queues the first attempt of each (or schedules it for a
    future `plannedAt`). An endpoint that is not taking events (gavAI breaker open, SmartChat paused or
    disabled) gets a `dropped` delivery, visible in the audit log. With an `Idempotency-Key`, repeating
    the same body answers the first answer and creates nothing new; if the first request failed before
    storing the event, the repeat stores it under the ids that answer promised and queues it, so
    retrying with the same key is always safe. Without named endpoints the event is routed by
    subscription through the subscription index (see `FanoutProgress`); an event that matches nothing is
    still kept in the audit log. Fan-out deliveries have ids derived from the event and the endpoint, so
    a redone fan-out step writes each once.

    Args:
        idempotency_key (None | str | Unset):
        body (EventIn): `POST /v1/events`. Name endpoints with `endpointId` or `endpointIds` (not
            both),
            or name neither and give `type` (with `applicationId` for an application's
            endpoints, none for the tenant's endpoints without an application) to route the
            event by subscription: every endpoint whose `filterTypes` and `channels` want it
            gets a delivery. Example: {'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload':
            {'amount': 4200, 'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventAccepted | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
