from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.complete_in import CompleteIn
from ...models.completion_recorded import CompletionRecorded
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    attempt_id: str,
    *,
    body: CompleteIn,
    webhook_completion_token: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["webhook-completion-token"] = webhook_completion_token

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/attempts/{attempt_id}/complete".format(
            attempt_id=quote(str(attempt_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CompletionRecorded | Problem | None:
    if response.status_code == 200:
        response_200 = CompletionRecorded.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[CompletionRecorded | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    attempt_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CompleteIn,
    webhook_completion_token: str,
) -> Response[CompletionRecorded | Problem]:
    """Report long-running work

     Called by a receiver, not with an API key: it answered an attempt with 202 to say the work goes on,
    and reports the result here before the endpoint's long-running allowance ends, authorised by the
    `webhook-completion-token` header that came with that attempt. The report settles the attempt as the
    policy decides (success, or a failure that may be retried).

    Args:
        attempt_id (str): An attempt id: `att_` and a ULID.
        webhook_completion_token (str):
        body (CompleteIn): `POST /v1/attempts/{attemptId}/complete`: the result of the work a
            receiver
            accepted with 202. Example: {'detail': 'invoice archived', 'outcome': 'succeeded'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompletionRecorded | Problem]
    """

    kwargs = _get_kwargs(
        attempt_id=attempt_id,
        body=body,
        webhook_completion_token=webhook_completion_token,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    attempt_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CompleteIn,
    webhook_completion_token: str,
) -> CompletionRecorded | Problem | None:
    """Report long-running work

     Called by a receiver, not with an API key: it answered an attempt with 202 to say the work goes on,
    and reports the result here before the endpoint's long-running allowance ends, authorised by the
    `webhook-completion-token` header that came with that attempt. The report settles the attempt as the
    policy decides (success, or a failure that may be retried).

    Args:
        attempt_id (str): An attempt id: `att_` and a ULID.
        webhook_completion_token (str):
        body (CompleteIn): `POST /v1/attempts/{attemptId}/complete`: the result of the work a
            receiver
            accepted with 202. Example: {'detail': 'invoice archived', 'outcome': 'succeeded'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompletionRecorded | Problem
    """

    return sync_detailed(
        attempt_id=attempt_id,
        client=client,
        body=body,
        webhook_completion_token=webhook_completion_token,
    ).parsed


async def asyncio_detailed(
    attempt_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CompleteIn,
    webhook_completion_token: str,
) -> Response[CompletionRecorded | Problem]:
    """Report long-running work

     Called by a receiver, not with an API key: it answered an attempt with 202 to say the work goes on,
    and reports the result here before the endpoint's long-running allowance ends, authorised by the
    `webhook-completion-token` header that came with that attempt. The report settles the attempt as the
    policy decides (success, or a failure that may be retried).

    Args:
        attempt_id (str): An attempt id: `att_` and a ULID.
        webhook_completion_token (str):
        body (CompleteIn): `POST /v1/attempts/{attemptId}/complete`: the result of the work a
            receiver
            accepted with 202. Example: {'detail': 'invoice archived', 'outcome': 'succeeded'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompletionRecorded | Problem]
    """

    kwargs = _get_kwargs(
        attempt_id=attempt_id,
        body=body,
        webhook_completion_token=webhook_completion_token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    attempt_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CompleteIn,
    webhook_completion_token: str,
) -> CompletionRecorded | Problem | None:
    """Report long-running work

     Called by a receiver, not with an API key: it answered an attempt with 202 to say the work goes on,
    and reports the result here before the endpoint's long-running allowance ends, authorised by the
    `webhook-completion-token` header that came with that attempt. The report settles the attempt as the
    policy decides (success, or a failure that may be retried).

    Args:
        attempt_id (str): An attempt id: `att_` and a ULID.
        webhook_completion_token (str):
        body (CompleteIn): `POST /v1/attempts/{attemptId}/complete`: the result of the work a
            receiver
            accepted with 202. Example: {'detail': 'invoice archived', 'outcome': 'succeeded'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompletionRecorded | Problem
    """

    return (
        await asyncio_detailed(
            attempt_id=attempt_id,
            client=client,
            body=body,
            webhook_completion_token=webhook_completion_token,
        )
    ).parsed
