from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.redeliver_in import RedeliverIn
from ...models.redelivery_accepted import RedeliveryAccepted
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: RedeliverIn | Unset = UNSET,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/deliveries/{id}/redeliver".format(
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
) -> Problem | RedeliveryAccepted | None:
    if response.status_code == 202:
        response_202 = RedeliveryAccepted.from_dict(response.json())

        return response_202

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
) -> Response[Problem | RedeliveryAccepted]:
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
    body: RedeliverIn | Unset = UNSET,
    idempotency_key: str,
) -> Response[Problem | RedeliveryAccepted]:
    """Redeliver

     Makes one more attempt of a settled delivery (trigger `redelivery`), optionally naming the earlier
    attempt it follows up on (by default the last one). Requires an `Idempotency-Key`: repeating it with
    the same body answers the first answer and starts nothing new. The body may be omitted.

    Args:
        id (str): A delivery id: `dlv_` and a ULID.
        idempotency_key (str):
        body (RedeliverIn | Unset): `POST /v1/deliveries/{id}/redeliver`: which earlier attempt
            the new one follows
            up on. The body may be left out. Example: {'sourceAttemptId':
            'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RedeliveryAccepted]
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
    body: RedeliverIn | Unset = UNSET,
    idempotency_key: str,
) -> Problem | RedeliveryAccepted | None:
    """Redeliver

     Makes one more attempt of a settled delivery (trigger `redelivery`), optionally naming the earlier
    attempt it follows up on (by default the last one). Requires an `Idempotency-Key`: repeating it with
    the same body answers the first answer and starts nothing new. The body may be omitted.

    Args:
        id (str): A delivery id: `dlv_` and a ULID.
        idempotency_key (str):
        body (RedeliverIn | Unset): `POST /v1/deliveries/{id}/redeliver`: which earlier attempt
            the new one follows
            up on. The body may be left out. Example: {'sourceAttemptId':
            'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RedeliveryAccepted
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
    body: RedeliverIn | Unset = UNSET,
    idempotency_key: str,
) -> Response[Problem | RedeliveryAccepted]:
    """Redeliver

     Makes one more attempt of a settled delivery (trigger `redelivery`), optionally naming the earlier
    attempt it follows up on (by default the last one). Requires an `Idempotency-Key`: repeating it with
    the same body answers the first answer and starts nothing new. The body may be omitted.

    Args:
        id (str): A delivery id: `dlv_` and a ULID.
        idempotency_key (str):
        body (RedeliverIn | Unset): `POST /v1/deliveries/{id}/redeliver`: which earlier attempt
            the new one follows
            up on. The body may be left out. Example: {'sourceAttemptId':
            'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RedeliveryAccepted]
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
    body: RedeliverIn | Unset = UNSET,
    idempotency_key: str,
) -> Problem | RedeliveryAccepted | None:
    """Redeliver

     Makes one more attempt of a settled delivery (trigger `redelivery`), optionally naming the earlier
    attempt it follows up on (by default the last one). Requires an `Idempotency-Key`: repeating it with
    the same body answers the first answer and starts nothing new. The body may be omitted.

    Args:
        id (str): A delivery id: `dlv_` and a ULID.
        idempotency_key (str):
        body (RedeliverIn | Unset): `POST /v1/deliveries/{id}/redeliver`: which earlier attempt
            the new one follows
            up on. The body may be left out. Example: {'sourceAttemptId':
            'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RedeliveryAccepted
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
