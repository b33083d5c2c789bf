import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.page_event_out import PageEventOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    endpoint_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["endpointId"] = endpoint_id

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    json_until: str | Unset = UNSET
    if not isinstance(until, Unset):
        json_until = until.isoformat()
    params["until"] = json_until

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PageEventOut | Problem | None:
    if response.status_code == 200:
        response_200 = PageEventOut.from_dict(response.json())

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
) -> Response[PageEventOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    endpoint_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[PageEventOut | Problem]:
    """The audit log

     Your tenant's events, newest first, each with its per-endpoint outcome at ingest (dropped ones
    included), optionally narrowed to one endpoint and a creation-time range.

    Args:
        endpoint_id (str | Unset): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageEventOut | Problem]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    endpoint_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> PageEventOut | Problem | None:
    """The audit log

     Your tenant's events, newest first, each with its per-endpoint outcome at ingest (dropped ones
    included), optionally narrowed to one endpoint and a creation-time range.

    Args:
        endpoint_id (str | Unset): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageEventOut | Problem
    """

    return sync_detailed(
        client=client,
        endpoint_id=endpoint_id,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    endpoint_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[PageEventOut | Problem]:
    """The audit log

     Your tenant's events, newest first, each with its per-endpoint outcome at ingest (dropped ones
    included), optionally narrowed to one endpoint and a creation-time range.

    Args:
        endpoint_id (str | Unset): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageEventOut | Problem]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    endpoint_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> PageEventOut | Problem | None:
    """The audit log

     Your tenant's events, newest first, each with its per-endpoint outcome at ingest (dropped ones
    included), optionally narrowed to one endpoint and a creation-time range.

    Args:
        endpoint_id (str | Unset): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        cursor (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageEventOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            endpoint_id=endpoint_id,
            since=since,
            until=until,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
