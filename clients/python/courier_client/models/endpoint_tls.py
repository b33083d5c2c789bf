from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EndpointTls")


@_attrs_define
class EndpointTls:
    """TLS settings: a client certificate and key (mutual TLS), a CA bundle, or both.
    `clientCertificateExpiresAt` is what answers show; sent back unchanged, it is
    ignored (it follows from the certificate).

        Example:
            {'caBundle': '-----BEGIN CERTIFICATE-----\\nMIIB...\\n-----END CERTIFICATE-----\\n'}

        Attributes:
            ca_bundle (None | str | Unset): PEM CA certificates that replace the public roots for this receiver's server
                certificate (not the token endpoint's).
            client_certificate (None | str | Unset): PEM certificate chain to present, leaf first; with `clientKey`. 400
                naming
                the field when it is not PEM, or expired or not yet valid.
            client_certificate_expires_at (datetime.datetime | None | Unset): When the client certificate stops being valid
                (shown; ignored when sent).
            client_key (None | str | Unset): PEM private key (PKCS#8, PKCS#1 or SEC1) of the client certificate.
                Write-only: shown as null; left out with an unchanged certificate, the stored
                one is kept. 400 when it does not belong to the certificate.
    """

    ca_bundle: None | str | Unset = UNSET
    client_certificate: None | str | Unset = UNSET
    client_certificate_expires_at: datetime.datetime | None | Unset = UNSET
    client_key: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        ca_bundle: None | str | Unset
        if isinstance(self.ca_bundle, Unset):
            ca_bundle = UNSET
        else:
            ca_bundle = self.ca_bundle

        client_certificate: None | str | Unset
        if isinstance(self.client_certificate, Unset):
            client_certificate = UNSET
        else:
            client_certificate = self.client_certificate

        client_certificate_expires_at: None | str | Unset
        if isinstance(self.client_certificate_expires_at, Unset):
            client_certificate_expires_at = UNSET
        elif isinstance(self.client_certificate_expires_at, datetime.datetime):
            client_certificate_expires_at = self.client_certificate_expires_at.isoformat()
        else:
            client_certificate_expires_at = self.client_certificate_expires_at

        client_key: None | str | Unset
        if isinstance(self.client_key, Unset):
            client_key = UNSET
        else:
            client_key = self.client_key

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if ca_bundle is not UNSET:
            field_dict["caBundle"] = ca_bundle
        if client_certificate is not UNSET:
            field_dict["clientCertificate"] = client_certificate
        if client_certificate_expires_at is not UNSET:
            field_dict["clientCertificateExpiresAt"] = client_certificate_expires_at
        if client_key is not UNSET:
            field_dict["clientKey"] = client_key

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_ca_bundle(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ca_bundle = _parse_ca_bundle(d.pop("caBundle", UNSET))

        def _parse_client_certificate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_certificate = _parse_client_certificate(d.pop("clientCertificate", UNSET))

        def _parse_client_certificate_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                client_certificate_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return client_certificate_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        client_certificate_expires_at = _parse_client_certificate_expires_at(d.pop("clientCertificateExpiresAt", UNSET))

        def _parse_client_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_key = _parse_client_key(d.pop("clientKey", UNSET))

        endpoint_tls = cls(
            ca_bundle=ca_bundle,
            client_certificate=client_certificate,
            client_certificate_expires_at=client_certificate_expires_at,
            client_key=client_key,
        )

        return endpoint_tls
