from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.application_deleted import ApplicationDeleted
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    force: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["force"] = force

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/applications/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ApplicationDeleted | Problem | None:
    if response.status_code == 200:
        response_200 = ApplicationDeleted.from_dict(response.json())

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
) -> Response[ApplicationDeleted | Problem]:
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
    force: bool | Unset = UNSET,
) -> Response[ApplicationDeleted | Problem]:
    """Delete an application

     Deletes the application and frees its uid. Refused while its endpoints have deliveries in flight
    (scheduled, pending, retrying or ambiguous) unless `force=true`. Its endpoints stay but are disabled
    (as by `POST /v1/endpoints/{id}/disable`): they take no new events until enabled again. Needs an API
    key (a portal token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        force (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApplicationDeleted | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        force=force,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    force: bool | Unset = UNSET,
) -> ApplicationDeleted | Problem | None:
    """Delete an application

     Deletes the application and frees its uid. Refused while its endpoints have deliveries in flight
    (scheduled, pending, retrying or ambiguous) unless `force=true`. Its endpoints stay but are disabled
    (as by `POST /v1/endpoints/{id}/disable`): they take no new events until enabled again. Needs an API
    key (a portal token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        force (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApplicationDeleted | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        force=force,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    force: bool | Unset = UNSET,
) -> Response[ApplicationDeleted | Problem]:
    """Delete an application

     Deletes the application and frees its uid. Refused while its endpoints have deliveries in flight
    (scheduled, pending, retrying or ambiguous) unless `force=true`. Its endpoints stay but are disabled
    (as by `POST /v1/endpoints/{id}/disable`): they take no new events until enabled again. Needs an API
    key (a portal token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        force (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApplicationDeleted | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        force=force,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    force: bool | Unset = UNSET,
) -> ApplicationDeleted | Problem | None:
    """Delete an application

     Deletes the application and frees its uid. Refused while its endpoints have deliveries in flight
    (scheduled, pending, retrying or ambiguous) unless `force=true`. Its endpoints stay but are disabled
    (as by `POST /v1/endpoints/{id}/disable`): they take no new events until enabled again. Needs an API
    key (a portal token gets 403 `portal_forbidden`).

    Args:
        id (str): An application's `app_` id or its `uid` (the tenant's own id for the customer).
        force (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApplicationDeleted | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            force=force,
        )
    ).parsed
