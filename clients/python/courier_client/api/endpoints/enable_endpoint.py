from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.enable_endpoint import EnableEndpoint
from ...models.endpoint_enabled import EndpointEnabled
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: EnableEndpoint | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/endpoints/{id}/enable".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EndpointEnabled | Problem | None:
    if response.status_code == 200:
        response_200 = EndpointEnabled.from_dict(response.json())

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
) -> Response[EndpointEnabled | Problem]:
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
    body: EnableEndpoint | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[EndpointEnabled | Problem]:
    """Enable an endpoint

     Makes a disabled (or SmartChat-paused/disabled) endpoint active again. With `replaySince`, the
    endpoint's events from then until now are sent again (as with replay); `replayed` counts them. The
    body may be omitted. With `replaySince` and an `Idempotency-Key`, a repeat of the call (same key,
    same body) finishes a replay that failed part-way (a 503) instead of starting another: every event
    is re-sent once.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (None | str | Unset):
        body (EnableEndpoint | Unset): `POST /v1/endpoints/{id}/enable`: the body may be left out.
            Example: {'replaySince': '2026-11-30T06:28:01.000Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointEnabled | Problem]
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
    body: EnableEndpoint | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> EndpointEnabled | Problem | None:
    """Enable an endpoint

     Makes a disabled (or SmartChat-paused/disabled) endpoint active again. With `replaySince`, the
    endpoint's events from then until now are sent again (as with replay); `replayed` counts them. The
    body may be omitted. With `replaySince` and an `Idempotency-Key`, a repeat of the call (same key,
    same body) finishes a replay that failed part-way (a 503) instead of starting another: every event
    is re-sent once.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (None | str | Unset):
        body (EnableEndpoint | Unset): `POST /v1/endpoints/{id}/enable`: the body may be left out.
            Example: {'replaySince': '2026-11-30T06:28:01.000Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointEnabled | Problem
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
    body: EnableEndpoint | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[EndpointEnabled | Problem]:
    """Enable an endpoint

     Makes a disabled (or SmartChat-paused/disabled) endpoint active again. With `replaySince`, the
    endpoint's events from then until now are sent again (as with replay); `replayed` counts them. The
    body may be omitted. With `replaySince` and an `Idempotency-Key`, a repeat of the call (same key,
    same body) finishes a replay that failed part-way (a 503) instead of starting another: every event
    is re-sent once.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (None | str | Unset):
        body (EnableEndpoint | Unset): `POST /v1/endpoints/{id}/enable`: the body may be left out.
            Example: {'replaySince': '2026-11-30T06:28:01.000Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointEnabled | Problem]
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
    body: EnableEndpoint | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> EndpointEnabled | Problem | None:
    """Enable an endpoint

     Makes a disabled (or SmartChat-paused/disabled) endpoint active again. With `replaySince`, the
    endpoint's events from then until now are sent again (as with replay); `replayed` counts them. The
    body may be omitted. With `replaySince` and an `Idempotency-Key`, a repeat of the call (same key,
    same body) finishes a replay that failed part-way (a 503) instead of starting another: every event
    is re-sent once.

    Args:
        id (str): An endpoint id: `ep_` and a ULID.
        idempotency_key (None | str | Unset):
        body (EnableEndpoint | Unset): `POST /v1/endpoints/{id}/enable`: the body may be left out.
            Example: {'replaySince': '2026-11-30T06:28:01.000Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointEnabled | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
