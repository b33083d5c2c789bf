import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.stats_granularity import StatsGranularity
from ...models.stats_out import StatsOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    granularity: StatsGranularity | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    json_until: str | Unset = UNSET
    if not isinstance(until, Unset):
        json_until = until.isoformat()
    params["until"] = json_until

    json_granularity: str | Unset = UNSET
    if not isinstance(granularity, Unset):
        json_granularity = granularity.value

    params["granularity"] = json_granularity

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/endpoints/{id}/stats".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | StatsOut | None:
    if response.status_code == 200:
        response_200 = StatsOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | StatsOut]:
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
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    granularity: StatsGranularity | Unset = UNSET,
) -> Response[Problem | StatsOut]:
    """Statistics of an endpoint

     The endpoint's counters per minute or hour and its backlog. A portal token reads those of the
    endpoints in its link's scope.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        granularity (StatsGranularity | Unset): A bucket's width, as the answer names it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StatsOut]
    """

    kwargs = _get_kwargs(
        id=id,
        since=since,
        until=until,
        granularity=granularity,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    granularity: StatsGranularity | Unset = UNSET,
) -> Problem | StatsOut | None:
    """Statistics of an endpoint

     The endpoint's counters per minute or hour and its backlog. A portal token reads those of the
    endpoints in its link's scope.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        granularity (StatsGranularity | Unset): A bucket's width, as the answer names it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StatsOut
    """

    return sync_detailed(
        id=id,
        client=client,
        since=since,
        until=until,
        granularity=granularity,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    granularity: StatsGranularity | Unset = UNSET,
) -> Response[Problem | StatsOut]:
    """Statistics of an endpoint

     The endpoint's counters per minute or hour and its backlog. A portal token reads those of the
    endpoints in its link's scope.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        granularity (StatsGranularity | Unset): A bucket's width, as the answer names it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StatsOut]
    """

    kwargs = _get_kwargs(
        id=id,
        since=since,
        until=until,
        granularity=granularity,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    granularity: StatsGranularity | Unset = UNSET,
) -> Problem | StatsOut | None:
    """Statistics of an endpoint

     The endpoint's counters per minute or hour and its backlog. A portal token reads those of the
    endpoints in its link's scope.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        until (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional
            fraction.
        granularity (StatsGranularity | Unset): A bucket's width, as the answer names it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StatsOut
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            since=since,
            until=until,
            granularity=granularity,
        )
    ).parsed
