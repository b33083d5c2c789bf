from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.portal_link_in import PortalLinkIn
from ...models.portal_link_out import PortalLinkOut
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: PortalLinkIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/portal-links",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PortalLinkOut | Problem | None:
    if response.status_code == 201:
        response_201 = PortalLinkOut.from_dict(response.json())

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
) -> Response[PortalLinkOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PortalLinkIn,
) -> Response[PortalLinkOut | Problem]:
    """Make a portal link

     A short-lived, revocable link to the console for a tenant's customer, scoped to a set of endpoints.
    Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (PortalLinkIn): `POST /v1/portal-links`: a link for tenants without applications; its
            scope is
            exactly these endpoints, and it cannot create any. Example: {'endpointIds':
            ['ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2'], 'expiresInSeconds': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalLinkOut | Problem]
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
    body: PortalLinkIn,
) -> PortalLinkOut | Problem | None:
    """Make a portal link

     A short-lived, revocable link to the console for a tenant's customer, scoped to a set of endpoints.
    Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (PortalLinkIn): `POST /v1/portal-links`: a link for tenants without applications; its
            scope is
            exactly these endpoints, and it cannot create any. Example: {'endpointIds':
            ['ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2'], 'expiresInSeconds': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalLinkOut | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PortalLinkIn,
) -> Response[PortalLinkOut | Problem]:
    """Make a portal link

     A short-lived, revocable link to the console for a tenant's customer, scoped to a set of endpoints.
    Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (PortalLinkIn): `POST /v1/portal-links`: a link for tenants without applications; its
            scope is
            exactly these endpoints, and it cannot create any. Example: {'endpointIds':
            ['ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2'], 'expiresInSeconds': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalLinkOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PortalLinkIn,
) -> PortalLinkOut | Problem | None:
    """Make a portal link

     A short-lived, revocable link to the console for a tenant's customer, scoped to a set of endpoints.
    Needs an API key (a portal token gets 403 `portal_forbidden`).

    Args:
        body (PortalLinkIn): `POST /v1/portal-links`: a link for tenants without applications; its
            scope is
            exactly these endpoints, and it cannot create any. Example: {'endpointIds':
            ['ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2'], 'expiresInSeconds': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalLinkOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
