from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_status import DeliveryStatus
from ...models.page_delivery_out import PageDeliveryOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events/{id}/deliveries".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PageDeliveryOut | Problem | None:
    if response.status_code == 200:
        response_200 = PageDeliveryOut.from_dict(response.json())

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
) -> Response[PageDeliveryOut | Problem]:
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
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[PageDeliveryOut | Problem]:
    """An event's deliveries

     The deliveries the event was routed to: those named at ingest (the endpoints named, or a fan-out
    done in the request) in that order, then those of a stepped fan-out in subscription index order, a
    page at a time. While a fan-out is `in_progress` the list holds the pages written so far. A page may
    be short (an endpoint of a fan-out page that did not take the event has no delivery); the list ends
    only when `nextCursor` is null. With `status`, a page keeps only its deliveries in that status, so
    filtered pages can be short or empty while more follow. Replay and test deliveries are in the
    endpoint's delivery log.

    Args:
        id (str): An event id: `evt_` and a ULID.
        status (DeliveryStatus | Unset): `failed` covers every way a policy gives up; `dropped`
            was never sent.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageDeliveryOut | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        status=status,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> PageDeliveryOut | Problem | None:
    """An event's deliveries

     The deliveries the event was routed to: those named at ingest (the endpoints named, or a fan-out
    done in the request) in that order, then those of a stepped fan-out in subscription index order, a
    page at a time. While a fan-out is `in_progress` the list holds the pages written so far. A page may
    be short (an endpoint of a fan-out page that did not take the event has no delivery); the list ends
    only when `nextCursor` is null. With `status`, a page keeps only its deliveries in that status, so
    filtered pages can be short or empty while more follow. Replay and test deliveries are in the
    endpoint's delivery log.

    Args:
        id (str): An event id: `evt_` and a ULID.
        status (DeliveryStatus | Unset): `failed` covers every way a policy gives up; `dropped`
            was never sent.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageDeliveryOut | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        status=status,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[PageDeliveryOut | Problem]:
    """An event's deliveries

     The deliveries the event was routed to: those named at ingest (the endpoints named, or a fan-out
    done in the request) in that order, then those of a stepped fan-out in subscription index order, a
    page at a time. While a fan-out is `in_progress` the list holds the pages written so far. A page may
    be short (an endpoint of a fan-out page that did not take the event has no delivery); the list ends
    only when `nextCursor` is null. With `status`, a page keeps only its deliveries in that status, so
    filtered pages can be short or empty while more follow. Replay and test deliveries are in the
    endpoint's delivery log.

    Args:
        id (str): An event id: `evt_` and a ULID.
        status (DeliveryStatus | Unset): `failed` covers every way a policy gives up; `dropped`
            was never sent.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageDeliveryOut | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        status=status,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> PageDeliveryOut | Problem | None:
    """An event's deliveries

     The deliveries the event was routed to: those named at ingest (the endpoints named, or a fan-out
    done in the request) in that order, then those of a stepped fan-out in subscription index order, a
    page at a time. While a fan-out is `in_progress` the list holds the pages written so far. A page may
    be short (an endpoint of a fan-out page that did not take the event has no delivery); the list ends
    only when `nextCursor` is null. With `status`, a page keeps only its deliveries in that status, so
    filtered pages can be short or empty while more follow. Replay and test deliveries are in the
    endpoint's delivery log.

    Args:
        id (str): An event id: `evt_` and a ULID.
        status (DeliveryStatus | Unset): `failed` covers every way a policy gives up; `dropped`
            was never sent.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageDeliveryOut | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            status=status,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
