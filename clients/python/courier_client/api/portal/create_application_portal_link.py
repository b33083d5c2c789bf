from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.application_portal_link_in import ApplicationPortalLinkIn
from ...models.portal_link_out import PortalLinkOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: ApplicationPortalLinkIn | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/applications/{id}/portal-links".format(
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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ApplicationPortalLinkIn | Unset = UNSET,
) -> Response[PortalLinkOut | Problem]:
    """Make a portal link for an application

     A short-lived, revocable console link for one application's customer: inside that application it
    lists, creates, changes and deletes endpoints (within the application's `portal` settings), reads
    and resends their deliveries and browses the event-type catalogue. `endpointIds` narrows it to some
    endpoints (then it cannot create any); `readOnly` takes away every write. Needs an API key (a portal
    token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        body (ApplicationPortalLinkIn | Unset): `POST /v1/applications/{id}/portal-links`: the
            body may be left out. Example: {'expiresInSeconds': 3600, 'readOnly': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalLinkOut | Problem]
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
    body: ApplicationPortalLinkIn | Unset = UNSET,
) -> PortalLinkOut | Problem | None:
    """Make a portal link for an application

     A short-lived, revocable console link for one application's customer: inside that application it
    lists, creates, changes and deletes endpoints (within the application's `portal` settings), reads
    and resends their deliveries and browses the event-type catalogue. `endpointIds` narrows it to some
    endpoints (then it cannot create any); `readOnly` takes away every write. Needs an API key (a portal
    token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        body (ApplicationPortalLinkIn | Unset): `POST /v1/applications/{id}/portal-links`: the
            body may be left out. Example: {'expiresInSeconds': 3600, 'readOnly': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalLinkOut | Problem
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
    body: ApplicationPortalLinkIn | Unset = UNSET,
) -> Response[PortalLinkOut | Problem]:
    """Make a portal link for an application

     A short-lived, revocable console link for one application's customer: inside that application it
    lists, creates, changes and deletes endpoints (within the application's `portal` settings), reads
    and resends their deliveries and browses the event-type catalogue. `endpointIds` narrows it to some
    endpoints (then it cannot create any); `readOnly` takes away every write. Needs an API key (a portal
    token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        body (ApplicationPortalLinkIn | Unset): `POST /v1/applications/{id}/portal-links`: the
            body may be left out. Example: {'expiresInSeconds': 3600, 'readOnly': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalLinkOut | Problem]
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
    body: ApplicationPortalLinkIn | Unset = UNSET,
) -> PortalLinkOut | Problem | None:
    """Make a portal link for an application

     A short-lived, revocable console link for one application's customer: inside that application it
    lists, creates, changes and deletes endpoints (within the application's `portal` settings), reads
    and resends their deliveries and browses the event-type catalogue. `endpointIds` narrows it to some
    endpoints (then it cannot create any); `readOnly` takes away every write. Needs an API key (a portal
    token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        body (ApplicationPortalLinkIn | Unset): `POST /v1/applications/{id}/portal-links`: the
            body may be left out. Example: {'expiresInSeconds': 3600, 'readOnly': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalLinkOut | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
