from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_batch_in import EventBatchIn
from ...models.event_batch_results import EventBatchResults
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: EventBatchIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/events/batch",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EventBatchResults | Problem | None:
    if response.status_code == 207:
        response_207 = EventBatchResults.from_dict(response.json())

        return response_207

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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
) -> Response[EventBatchResults | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EventBatchIn,
) -> Response[EventBatchResults | Problem]:
    """Send up to 100 events in one request

     Each entry of `events` is ingested exactly as `POST /v1/events` ingests its body, with its own
    optional `idempotencyKey` (the same keys as the `Idempotency-Key` header of `POST /v1/events`,
    fingerprinted over the entry without the key) and its own result: one bad entry (a bad field, an
    unknown endpoint, a reused key, a storage failure) never fails the others. The answer is 207 with
    one result per entry, in order. The first attempts of every entry are queued together (SQS
    `SendMessageBatch`, ten messages per call). The whole body must still fit in 320 KiB.

    Args:
        body (EventBatchIn): `POST /v1/events/batch`. Example: {'events': [{'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'idempotencyKey': 'inv_123-paid', 'payload':
            {'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}, {'payload': {'invoiceId': 'inv_124'},
            'type': 'invoice.paid'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventBatchResults | Problem]
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
    body: EventBatchIn,
) -> EventBatchResults | Problem | None:
    """Send up to 100 events in one request

     Each entry of `events` is ingested exactly as `POST /v1/events` ingests its body, with its own
    optional `idempotencyKey` (the same keys as the `Idempotency-Key` header of `POST /v1/events`,
    fingerprinted over the entry without the key) and its own result: one bad entry (a bad field, an
    unknown endpoint, a reused key, a storage failure) never fails the others. The answer is 207 with
    one result per entry, in order. The first attempts of every entry are queued together (SQS
    `SendMessageBatch`, ten messages per call). The whole body must still fit in 320 KiB.

    Args:
        body (EventBatchIn): `POST /v1/events/batch`. Example: {'events': [{'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'idempotencyKey': 'inv_123-paid', 'payload':
            {'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}, {'payload': {'invoiceId': 'inv_124'},
            'type': 'invoice.paid'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventBatchResults | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EventBatchIn,
) -> Response[EventBatchResults | Problem]:
    """Send up to 100 events in one request

     Each entry of `events` is ingested exactly as `POST /v1/events` ingests its body, with its own
    optional `idempotencyKey` (the same keys as the `Idempotency-Key` header of `POST /v1/events`,
    fingerprinted over the entry without the key) and its own result: one bad entry (a bad field, an
    unknown endpoint, a reused key, a storage failure) never fails the others. The answer is 207 with
    one result per entry, in order. The first attempts of every entry are queued together (SQS
    `SendMessageBatch`, ten messages per call). The whole body must still fit in 320 KiB.

    Args:
        body (EventBatchIn): `POST /v1/events/batch`. Example: {'events': [{'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'idempotencyKey': 'inv_123-paid', 'payload':
            {'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}, {'payload': {'invoiceId': 'inv_124'},
            'type': 'invoice.paid'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventBatchResults | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: EventBatchIn,
) -> EventBatchResults | Problem | None:
    """Send up to 100 events in one request

     Each entry of `events` is ingested exactly as `POST /v1/events` ingests its body, with its own
    optional `idempotencyKey` (the same keys as the `Idempotency-Key` header of `POST /v1/events`,
    fingerprinted over the entry without the key) and its own result: one bad entry (a bad field, an
    unknown endpoint, a reused key, a storage failure) never fails the others. The answer is 207 with
    one result per entry, in order. The first attempts of every entry are queued together (SQS
    `SendMessageBatch`, ten messages per call). The whole body must still fit in 320 KiB.

    Args:
        body (EventBatchIn): `POST /v1/events/batch`. Example: {'events': [{'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'idempotencyKey': 'inv_123-paid', 'payload':
            {'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}, {'payload': {'invoiceId': 'inv_124'},
            'type': 'invoice.paid'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventBatchResults | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
