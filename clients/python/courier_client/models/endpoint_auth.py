from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.auth_type import AuthType
from ..models.client_auth import ClientAuth
from ..types import UNSET, Unset

T = TypeVar("T", bound="EndpointAuth")


@_attrs_define
class EndpointAuth:
    """OAuth 2.0 client credentials: every attempt carries `Authorization: Bearer
    <token>` (in place of an `Authorization` among `headers`). The token endpoint's
    certificate is checked against the public roots (and the deployment's trusted
    CA), not the endpoint's `tls.caBundle`. The token is kept until shortly before it
    expires; a 401 to a kept token gets one fresh token and the same request once
    more. A token endpoint that gives no token makes the attempt
    `retryable_failure` / `receiver_auth_failed` / `review_endpoint`, with its status
    and the start of its answer as the snippet.

        Example:
            {'clientId': 'courier', 'clientSecret': 's3cret', 'scope': 'webhooks:write', 'tokenUrl':
                'https://auth.example.com/oauth/token', 'type': 'oauth2_client_credentials'}

        Attributes:
            client_id (str):
            token_url (str): The token endpoint. Admitted like endpoint URLs (400 malformed, 422
                `endpoint_unsafe` for a target Courier does not send to), and again at every
                fetch; the fetch connects to the address that was checked.
            type_ (AuthType): The one grant offered.
            audience (None | str | Unset): Sent as the `audience` parameter.
            client_auth (ClientAuth | None | Unset):
            client_secret (None | str | Unset): Write-only: shown as null. Required when the endpoint has no stored secret;
                null or left out keeps the stored one.
            scope (None | str | Unset): Scopes asked for, separated by single spaces (RFC 6749 3.3).
    """

    client_id: str
    token_url: str
    type_: AuthType
    audience: None | str | Unset = UNSET
    client_auth: ClientAuth | None | Unset = UNSET
    client_secret: None | str | Unset = UNSET
    scope: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        token_url = self.token_url

        type_ = self.type_.value

        audience: None | str | Unset
        if isinstance(self.audience, Unset):
            audience = UNSET
        else:
            audience = self.audience

        client_auth: None | str | Unset
        if isinstance(self.client_auth, Unset):
            client_auth = UNSET
        elif isinstance(self.client_auth, ClientAuth):
            client_auth = self.client_auth.value
        else:
            client_auth = self.client_auth

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "clientId": client_id,
                "tokenUrl": token_url,
                "type": type_,
            }
        )
        if audience is not UNSET:
            field_dict["audience"] = audience
        if client_auth is not UNSET:
            field_dict["clientAuth"] = client_auth
        if client_secret is not UNSET:
            field_dict["clientSecret"] = client_secret
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        token_url = d.pop("tokenUrl")

        type_ = AuthType(d.pop("type"))

        def _parse_audience(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        audience = _parse_audience(d.pop("audience", UNSET))

        def _parse_client_auth(data: object) -> ClientAuth | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                client_auth_type_1 = ClientAuth(data)

                return client_auth_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClientAuth | None | Unset, data)

        client_auth = _parse_client_auth(d.pop("clientAuth", UNSET))

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

        endpoint_auth = cls(
            client_id=client_id,
            token_url=token_url,
            type_=type_,
            audience=audience,
            client_auth=client_auth,
            client_secret=client_secret,
            scope=scope,
        )

        return endpoint_auth
