from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.endpoint_in import EndpointIn
from ...models.endpoint_with_secret import EndpointWithSecret
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: EndpointIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/endpoints",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EndpointWithSecret | Problem | None:
    if response.status_code == 201:
        response_201 = EndpointWithSecret.from_dict(response.json())

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
) -> Response[EndpointWithSecret | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EndpointIn,
) -> Response[EndpointWithSecret | Problem]:
    """Create an endpoint

     Registers a receiver URL with a delivery policy. The URL goes through admission: https only (http
    only where the deployment allows it), no userinfo, and the host must resolve only to public
    addresses (private and loopback ones only where the deployment allows them, as the local runner
    does). The answer carries the endpoint's first signing secret, which is shown only this once.

    Args:
        body (EndpointIn): `POST /v1/endpoints`: a receiver URL (or a destination) and its policy.
            Example: {'description': 'Billing receiver', 'filterTypes': ['invoice.*'], 'policy':
            'greatwait', 'url': 'https://example.com/webhooks'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointWithSecret | Problem]
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
    body: EndpointIn,
) -> EndpointWithSecret | Problem | None:
    """Create an endpoint

     Registers a receiver URL with a delivery policy. The URL goes through admission: https only (http
    only where the deployment allows it), no userinfo, and the host must resolve only to public
    addresses (private and loopback ones only where the deployment allows them, as the local runner
    does). The answer carries the endpoint's first signing secret, which is shown only this once.

    Args:
        body (EndpointIn): `POST /v1/endpoints`: a receiver URL (or a destination) and its policy.
            Example: {'description': 'Billing receiver', 'filterTypes': ['invoice.*'], 'policy':
            'greatwait', 'url': 'https://example.com/webhooks'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointWithSecret | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EndpointIn,
) -> Response[EndpointWithSecret | Problem]:
    """Create an endpoint

     Registers a receiver URL with a delivery policy. The URL goes through admission: https only (http
    only where the deployment allows it), no userinfo, and the host must resolve only to public
    addresses (private and loopback ones only where the deployment allows them, as the local runner
    does). The answer carries the endpoint's first signing secret, which is shown only this once.

    Args:
        body (EndpointIn): `POST /v1/endpoints`: a receiver URL (or a destination) and its policy.
            Example: {'description': 'Billing receiver', 'filterTypes': ['invoice.*'], 'policy':
            'greatwait', 'url': 'https://example.com/webhooks'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointWithSecret | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: EndpointIn,
) -> EndpointWithSecret | Problem | None:
    """Create an endpoint

     Registers a receiver URL with a delivery policy. The URL goes through admission: https only (http
    only where the deployment allows it), no userinfo, and the host must resolve only to public
    addresses (private and loopback ones only where the deployment allows them, as the local runner
    does). The answer carries the endpoint's first signing secret, which is shown only this once.

    Args:
        body (EndpointIn): `POST /v1/endpoints`: a receiver URL (or a destination) and its policy.
            Example: {'description': 'Billing receiver', 'filterTypes': ['invoice.*'], 'policy':
            'greatwait', 'url': 'https://example.com/webhooks'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointWithSecret | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
