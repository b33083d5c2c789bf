from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_type_out import EventTypeOut
from ...models.event_type_patch import EventTypePatch
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: EventTypePatch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/event-types/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventTypeOut | Problem | None:
    if response.status_code == 200:
        response_200 = EventTypeOut.from_dict(response.json())

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
) -> Response[EventTypeOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: EventTypePatch,
) -> Response[EventTypeOut | Problem]:
    """Change an event type

     Changes the description (`null` removes it), `deprecated`, or the schema (`null` removes it; a new
    one is checked as on create and applies to events accepted after the change). Needs an API key (a
    portal token gets 403 `portal_forbidden`).

    Args:
        name (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`): the
            same names `filterTypes` matches.
        body (EventTypePatch): `PATCH /v1/event-types/{name}`: fields left out keep their value;
            `null` clears
            `description`, `schema` and `example`. Example: {'deprecated': True, 'example': None}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeOut | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: EventTypePatch,
) -> EventTypeOut | Problem | None:
    """Change an event type

     Changes the description (`null` removes it), `deprecated`, or the schema (`null` removes it; a new
    one is checked as on create and applies to events accepted after the change). Needs an API key (a
    portal token gets 403 `portal_forbidden`).

    Args:
        name (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`): the
            same names `filterTypes` matches.
        body (EventTypePatch): `PATCH /v1/event-types/{name}`: fields left out keep their value;
            `null` clears
            `description`, `schema` and `example`. Example: {'deprecated': True, 'example': None}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeOut | Problem
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: EventTypePatch,
) -> Response[EventTypeOut | Problem]:
    """Change an event type

     Changes the description (`null` removes it), `deprecated`, or the schema (`null` removes it; a new
    one is checked as on create and applies to events accepted after the change). Needs an API key (a
    portal token gets 403 `portal_forbidden`).

    Args:
        name (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`): the
            same names `filterTypes` matches.
        body (EventTypePatch): `PATCH /v1/event-types/{name}`: fields left out keep their value;
            `null` clears
            `description`, `schema` and `example`. Example: {'deprecated': True, 'example': None}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeOut | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: EventTypePatch,
) -> EventTypeOut | Problem | None:
    """Change an event type

     Changes the description (`null` removes it), `deprecated`, or the schema (`null` removes it; a new
    one is checked as on create and applies to events accepted after the change). Needs an API key (a
    portal token gets 403 `portal_forbidden`).

    Args:
        name (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`): the
            same names `filterTypes` matches.
        body (EventTypePatch): `PATCH /v1/event-types/{name}`: fields left out keep their value;
            `null` clears
            `description`, `schema` and `example`. Example: {'deprecated': True, 'example': None}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeOut | Problem
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
