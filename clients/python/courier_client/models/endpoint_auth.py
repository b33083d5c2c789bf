from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.endpoint_auth_client_auth import EndpointAuthClientAuth
from ..models.endpoint_auth_type import EndpointAuthType
from ..types import UNSET, Unset

T = TypeVar("T", bound="EndpointAuth")


@_attrs_define
class EndpointAuth:
    """OAuth 2.0 client credentials: every attempt carries `Authorization: Bearer <token>` (in place of an `Authorization`
    among `headers`). The token endpoint's certificate is checked against the public roots (and the deployment's trusted
    CA), not the endpoint's `tls.caBundle`. The token is kept until shortly before it expires; a 401 to a kept token
    gets one fresh token and the same request once more. A token endpoint that gives no token makes the attempt
    `retryable_failure` / `receiver_auth_failed` / `review_endpoint`, with its status and the start of its answer as the
    snippet.

        Attributes:
            type_ (EndpointAuthType): The OAuth 2.0 grant: client credentials (RFC 6749 4.4).
            token_url (str): The token endpoint. Admitted like endpoint URLs (400 malformed, 422 `endpoint_unsafe` for a
                target Courier does not send to), and again at every fetch; the fetch connects to the address that was checked.
            client_id (str):
            client_secret (None | str | Unset): Write-only: shown as null. Required when the endpoint has no stored secret;
                null or left out keeps the stored one.
            scope (None | str | Unset): Scopes asked for, separated by single spaces (RFC 6749 3.3).
            audience (None | str | Unset): Sent as the `audience` parameter.
            client_auth (EndpointAuthClientAuth | Unset): `basic`: client_secret_basic (HTTP Basic); `post`:
                client_secret_post (form body). Default: EndpointAuthClientAuth.BASIC.
    """

    type_: EndpointAuthType
    token_url: str
    client_id: str
    client_secret: None | str | Unset = UNSET
    scope: None | str | Unset = UNSET
    audience: None | str | Unset = UNSET
    client_auth: EndpointAuthClientAuth | Unset = EndpointAuthClientAuth.BASIC

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        token_url = self.token_url

        client_id = self.client_id

        client_secret: None | str | Unset
        if isinstance(self.client_secret, Unset):
            client_secret = UNSET
        else:
            client_secret = self.client_secret

        scope: None | str | Unset
        if isinstance(self.scope, Unset):
            scope = UNSET
        else:
            scope = self.scope

        audience: None | str | Unset
        if isinstance(self.audience, Unset):
            audience = UNSET
        else:
            audience = self.audience

        client_auth: str | Unset = UNSET
        if not isinstance(self.client_auth, Unset):
            client_auth = self.client_auth.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "tokenUrl": token_url,
                "clientId": client_id,
            }
        )
        if client_secret is not UNSET:
            field_dict["clientSecret"] = client_secret
        if scope is not UNSET:
            field_dict["scope"] = scope
        if audience is not UNSET:
            field_dict["audience"] = audience
        if client_auth is not UNSET:
            field_dict["clientAuth"] = client_auth

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = EndpointAuthType(d.pop("type"))

        token_url = d.pop("tokenUrl")

        client_id = d.pop("clientId")

        def _parse_client_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_secret = _parse_client_secret(d.pop("clientSecret", UNSET))

        def _parse_scope(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        scope = _parse_scope(d.pop("scope", UNSET))

        def _parse_audience(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        audience = _parse_audience(d.pop("audience", UNSET))

        _client_auth = d.pop("clientAuth", UNSET)
        client_auth: EndpointAuthClientAuth | Unset
        if isinstance(_client_auth, Unset):
            client_auth = UNSET
        else:
            client_auth = EndpointAuthClientAuth(_client_auth)

        endpoint_auth = cls(
            type_=type_,
            token_url=token_url,
            client_id=client_id,
            client_secret=client_secret,
            scope=scope,
            audience=audience,
            client_auth=client_auth,
        )

        return endpoint_auth
