//! Address classification for SSRF protection: decides whether Courier may open a
//! connection to one IP address. Pure (no I/O, no DNS) so that URL admission, the
//! connect-time resolver and the IP-literal check all share exactly one rule.
//!
//! The rule is a deny-list of the IANA special-purpose ranges plus cloud metadata
//! addresses, applied also to every IPv6 form that embeds an IPv4 address (mapped,
//! compatible, NAT64, 6to4), because connecting to such a form reaches the embedded
//! IPv4 host.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// 127.0.0.0/8, ::1. Lifted by `allow_private`.
    Loopback,
    /// RFC 1918: 10/8, 172.16/12, 192.168/16. Lifted by `allow_private`.
    Private,
    /// RFC 6598 shared address space (carrier-grade NAT), 100.64/10. Lifted by
    /// `allow_private`.
    SharedAddressSpace,
    /// IPv6 unique-local fc00::/7. Lifted by `allow_private`.
    UniqueLocal,
    /// 169.254/16, fe80::/10: never reachable from a shared sender, and where cloud
    /// instance services live. Never lifted.
    LinkLocal,
    /// A cloud instance metadata or instance-service address. Never lifted.
    CloudMetadata,
    /// 0.0.0.0/8 or ::. Connecting to 0.0.0.0 reaches the local host on Linux.
    Unspecified,
    /// 255.255.255.255.
    Broadcast,
    /// 224/4, ff00::/8.
    Multicast,
    /// Documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32,
    /// 3fff::/20): never a real receiver.
    Documentation,
    /// Benchmarking ranges (198.18/15, 2001:2::/48).
    Benchmarking,
    /// Any other special-purpose or unallocated range (240/4, 192.0.0/24, IPv6
    /// outside 2000::/3, Teredo, discard-only, ...).
    Reserved,
}

impl Refusal {
    /// Whether the deployment flag `allow_private` lifts this refusal. Link-local and
    /// metadata addresses are deliberately absent: even a local runner must not let
    /// a webhook URL read instance credentials.
    pub fn is_private_network(self) -> bool {
        matches!(
            self,
            Refusal::Loopback | Refusal::Private | Refusal::SharedAddressSpace | Refusal::UniqueLocal
        )
    }

    /// A stable snake_case name, for API error details and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::Loopback => "loopback",
            Refusal::Private => "private",
            Refusal::SharedAddressSpace => "shared_address_space",
            Refusal::UniqueLocal => "unique_local",
            Refusal::LinkLocal => "link_local",
            Refusal::CloudMetadata => "cloud_metadata",
            Refusal::Unspecified => "unspecified",
            Refusal::Broadcast => "broadcast",
            Refusal::Multicast => "multicast",
            Refusal::Documentation => "documentation",
            Refusal::Benchmarking => "benchmarking",
            Refusal::Reserved => "reserved",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Instance-metadata and instance-service addresses. Most are link-local anyway; they
/// are listed so the refusal names them, and so the ones inside ranges that
/// `allow_private` lifts (Alibaba's CGNAT address, the IPv6 ULA ones) stay refused.
const METADATA_V4: [Ipv4Addr; 3] = [
    Ipv4Addr::new(169, 254, 169, 254), // AWS, GCP, Azure, OCI, ...
    Ipv4Addr::new(100, 100, 100, 200), // Alibaba Cloud
    Ipv4Addr::new(192, 0, 0, 192),     // OCI alternative
];

/// AWS's IPv6 instance services (fd00:ec2::254 metadata, ::253 DNS, ::123 time,
/// ::23 EKS pod identity) share fd00:ec2::/64; GCP's IPv6 metadata is fd20:ce::254.
fn is_metadata_v6(ip: Ipv6Addr) -> bool {
    let n = u128::from(ip);
    in_v6(n, 0xfd00_0ec2_0000_0000_0000_0000_0000_0000, 64) || ip == Ipv6Addr::new(0xfd20, 0xce, 0, 0, 0, 0, 0, 0x254)
}

/// Why Courier must not connect to `ip`, or `None` when it may.
///
/// `allow_private` (a deployment setting; the local runner sets it) lifts only the
/// refusals for which [`Refusal::is_private_network`] holds.
pub fn address_refusal(ip: IpAddr, allow_private: bool) -> Option<Refusal> {
    let refusal = match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }?;
    if allow_private && refusal.is_private_network() {
        None
    } else {
        Some(refusal)
    }
}

fn in_v4(n: u32, base: u32, prefix: u32) -> bool {
    let mask = if prefix == 0 { 0 } else { u32::MAX << (32 - prefix) };
    n & mask == base & mask
}

fn in_v6(n: u128, base: u128, prefix: u32) -> bool {
    let mask = if prefix == 0 { 0 } else { u128::MAX << (128 - prefix) };
    n & mask == base & mask
}

fn classify_v4(ip: Ipv4Addr) -> Option<Refusal> {
    let n = u32::from(ip);
    let within = |a: [u8; 4], prefix: u32| in_v4(n, u32::from(Ipv4Addr::from(a)), prefix);
    // Metadata first: its addresses sit inside ranges that would name them otherwise.
    if METADATA_V4.contains(&ip) {
        return Some(Refusal::CloudMetadata);
    }
    let refusal = if ip.is_broadcast() {
        Refusal::Broadcast
    } else if within([0, 0, 0, 0], 8) {
        Refusal::Unspecified
    } else if within([127, 0, 0, 0], 8) {
        Refusal::Loopback
    } else if within([10, 0, 0, 0], 8) || within([172, 16, 0, 0], 12) || within([192, 168, 0, 0], 16) {
        Refusal::Private
    } else if within([100, 64, 0, 0], 10) {
        Refusal::SharedAddressSpace
    } else if within([169, 254, 0, 0], 16) {
        Refusal::LinkLocal
    } else if within([224, 0, 0, 0], 4) {
        Refusal::Multicast
    } else if within([240, 0, 0, 0], 4) {
        Refusal::Reserved
    } else if within([192, 0, 2, 0], 24) || within([198, 51, 100, 0], 24) || within([203, 0, 113, 0], 24) {
        Refusal::Documentation
    } else if within([198, 18, 0, 0], 15) {
        Refusal::Benchmarking
    } else if within([192, 0, 0, 0], 24) || within([192, 88, 99, 0], 24) {
        // IETF protocol assignments; the deprecated 6to4 relay anycast range.
        Refusal::Reserved
    } else {
        return None;
    };
    Some(refusal)
}

/// The IPv4 address in the low 32 bits.
fn low_v4(n: u128) -> Ipv4Addr {
    // Truncation is the point: the embedded address is the low 32 bits.
    Ipv4Addr::from((n & 0xffff_ffff) as u32)
}

fn classify_v6(ip: Ipv6Addr) -> Option<Refusal> {
    let n = u128::from(ip);
    let within = |base: u128, prefix: u32| in_v6(n, base, prefix);
    if is_metadata_v6(ip) {
        return Some(Refusal::CloudMetadata);
    }
    if ip.is_unspecified() {
        return Some(Refusal::Unspecified);
    }
    if ip.is_loopback() {
        return Some(Refusal::Loopback);
    }
    // Forms that reach an embedded IPv4 host are judged as that host.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    if within(0, 96) {
        // IPv4-compatible ::a.b.c.d (deprecated, but some stacks still route it).
        return classify_v4(low_v4(n));
    }
    if within(0x0064_ff9b_0000_0000_0000_0000_0000_0000, 96) {
        // NAT64 well-known prefix: the gateway connects to the embedded address.
        return classify_v4(low_v4(n));
    }
    if within(0x2002_0000_0000_0000_0000_0000_0000_0000, 16) {
        // 6to4: the IPv4 address is bits 16..48.
        return classify_v4(Ipv4Addr::from(((n >> 80) & 0xffff_ffff) as u32));
    }
    let refusal = if within(0xfc00_0000_0000_0000_0000_0000_0000_0000, 7) {
        Refusal::UniqueLocal
    } else if within(0xfe80_0000_0000_0000_0000_0000_0000_0000, 10) {
        Refusal::LinkLocal
    } else if within(0xff00_0000_0000_0000_0000_0000_0000_0000, 8) {
        Refusal::Multicast
    } else if within(0x2001_0db8_0000_0000_0000_0000_0000_0000, 32)
        || within(0x3fff_0000_0000_0000_0000_0000_0000_0000, 20)
    {
        Refusal::Documentation
    } else if within(0x2001_0002_0000_0000_0000_0000_0000_0000, 48) {
        Refusal::Benchmarking
    } else if within(0x2001_0000_0000_0000_0000_0000_0000_0000, 23)
        || within(0x0064_ff9b_0001_0000_0000_0000_0000_0000, 48)
        || within(0x0100_0000_0000_0000_0000_0000_0000_0000, 64)
        || within(0x5f00_0000_0000_0000_0000_0000_0000_0000, 16)
        || !within(0x2000_0000_0000_0000_0000_0000_0000_0000, 3)
    {
        // IETF protocol assignments (incl. Teredo, whose embedded client address is
        // obfuscated), local-use NAT64 (embedding position not fixed), discard-only,
        // SRv6 SIDs, and everything outside global unicast (incl. deprecated
        // site-local fec0::/10).
        Refusal::Reserved
    } else {
        return None;
    };
    Some(refusal)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (address, refusal when private targets are not allowed, refusal when they are)
    const TABLE: &[(&str, Option<Refusal>, Option<Refusal>)] = {
        use Refusal::*;
        &[
            // IPv4: public
            ("93.184.215.14", None, None),
            ("8.8.8.8", None, None),
            ("1.1.1.1", None, None),
            ("172.15.255.255", None, None),
            ("172.32.0.0", None, None),
            ("100.63.255.255", None, None),
            ("100.128.0.0", None, None),
            ("192.169.0.1", None, None),
            ("198.20.0.1", None, None),
            ("223.255.255.255", None, None),
            ("192.31.196.1", None, None),
            // IPv4: lifted by allow_private
            ("127.0.0.1", Some(Loopback), None),
            ("127.255.255.254", Some(Loopback), None),
            ("10.0.0.1", Some(Private), None),
            ("10.255.255.255", Some(Private), None),
            ("172.16.0.1", Some(Private), None),
            ("172.31.255.255", Some(Private), None),
            ("192.168.1.1", Some(Private), None),
            ("100.64.0.1", Some(SharedAddressSpace), None),
            ("100.127.255.255", Some(SharedAddressSpace), None),
            // IPv4: never lifted
            ("169.254.169.254", Some(CloudMetadata), Some(CloudMetadata)),
            ("100.100.100.200", Some(CloudMetadata), Some(CloudMetadata)),
            ("192.0.0.192", Some(CloudMetadata), Some(CloudMetadata)),
            ("169.254.0.1", Some(LinkLocal), Some(LinkLocal)),
            ("169.254.170.2", Some(LinkLocal), Some(LinkLocal)),
            ("0.0.0.0", Some(Unspecified), Some(Unspecified)),
            ("0.1.2.3", Some(Unspecified), Some(Unspecified)),
            ("255.255.255.255", Some(Broadcast), Some(Broadcast)),
            ("224.0.0.1", Some(Multicast), Some(Multicast)),
            ("239.255.255.250", Some(Multicast), Some(Multicast)),
            ("240.0.0.1", Some(Reserved), Some(Reserved)),
            ("192.0.0.8", Some(Reserved), Some(Reserved)),
            ("192.88.99.1", Some(Reserved), Some(Reserved)),
            ("192.0.2.1", Some(Documentation), Some(Documentation)),
            ("198.51.100.7", Some(Documentation), Some(Documentation)),
            ("203.0.113.255", Some(Documentation), Some(Documentation)),
            ("198.18.0.1", Some(Benchmarking), Some(Benchmarking)),
            ("198.19.255.255", Some(Benchmarking), Some(Benchmarking)),
            // IPv6: public
            ("2606:4700:4700::1111", None, None),
            ("2001:4860:4860::8888", None, None),
            ("2a00:1450:4001:80b::200e", None, None),
            // IPv6: lifted by allow_private
            ("::1", Some(Loopback), None),
            ("fc00::1", Some(UniqueLocal), None),
            ("fd12:3456:789a::1", Some(UniqueLocal), None),
            // IPv6: never lifted
            ("::", Some(Unspecified), Some(Unspecified)),
            ("fe80::1", Some(LinkLocal), Some(LinkLocal)),
            ("febf:ffff::1", Some(LinkLocal), Some(LinkLocal)),
            ("fd00:ec2::254", Some(CloudMetadata), Some(CloudMetadata)),
            ("fd00:ec2::23", Some(CloudMetadata), Some(CloudMetadata)),
            ("fd20:ce::254", Some(CloudMetadata), Some(CloudMetadata)),
            ("ff02::1", Some(Multicast), Some(Multicast)),
            ("ff0e::1", Some(Multicast), Some(Multicast)),
            ("2001:db8::1", Some(Documentation), Some(Documentation)),
            ("3fff::1", Some(Documentation), Some(Documentation)),
            ("2001:2::1", Some(Benchmarking), Some(Benchmarking)),
            ("2001::1", Some(Reserved), Some(Reserved)),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", Some(Reserved), Some(Reserved)),
            ("100::1", Some(Reserved), Some(Reserved)),
            ("64:ff9b:1::1", Some(Reserved), Some(Reserved)),
            ("fec0::1", Some(Reserved), Some(Reserved)),
            ("5f00::1", Some(Reserved), Some(Reserved)),
            ("4000::1", Some(Reserved), Some(Reserved)),
            ("::ffff:0:1.2.3.4", Some(Reserved), Some(Reserved)),
            // IPv4-mapped
            ("::ffff:127.0.0.1", Some(Loopback), None),
            ("::ffff:10.1.2.3", Some(Private), None),
            ("::ffff:169.254.169.254", Some(CloudMetadata), Some(CloudMetadata)),
            ("::ffff:169.254.1.1", Some(LinkLocal), Some(LinkLocal)),
            ("::ffff:0.0.0.0", Some(Unspecified), Some(Unspecified)),
            ("::ffff:8.8.8.8", None, None),
            // IPv4-compatible
            ("::127.0.0.1", Some(Loopback), None),
            ("::169.254.169.254", Some(CloudMetadata), Some(CloudMetadata)),
            ("::0.0.0.2", Some(Unspecified), Some(Unspecified)),
            ("::8.8.8.8", None, None),
            // NAT64
            ("64:ff9b::127.0.0.1", Some(Loopback), None),
            ("64:ff9b::a9fe:a9fe", Some(CloudMetadata), Some(CloudMetadata)),
            ("64:ff9b::192.168.0.1", Some(Private), None),
            ("64:ff9b::8.8.8.8", None, None),
            // 6to4
            ("2002:7f00:1::1", Some(Loopback), None),
            ("2002:a9fe:a9fe::", Some(CloudMetadata), Some(CloudMetadata)),
            ("2002:c0a8:0101::1", Some(Private), None),
            ("2002:6464:64c8::1", Some(CloudMetadata), Some(CloudMetadata)),
            ("2002:0808:0808::1", None, None),
        ]
    };

    #[test]
    fn classification_table() {
        let mut failures = Vec::new();
        for (text, strict, lenient) in TABLE {
            let Ok(ip) = text.parse::<IpAddr>() else {
                failures.push(format!("{text}: not an IP address"));
                continue;
            };
            let got_strict = address_refusal(ip, false);
            let got_lenient = address_refusal(ip, true);
            if got_strict != *strict {
                failures.push(format!("{text} (strict): expected {strict:?}, got {got_strict:?}"));
            }
            if got_lenient != *lenient {
                failures.push(format!(
                    "{text} (allow_private): expected {lenient:?}, got {got_lenient:?}"
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn allow_private_lifts_exactly_the_private_network_refusals() {
        for (text, strict, lenient) in TABLE {
            if let Some(r) = strict {
                let expected = if r.is_private_network() { None } else { Some(*r) };
                assert_eq!(*lenient, expected, "{text}");
            }
        }
    }

    #[test]
    fn refusal_names_are_snake_case() {
        for r in [Refusal::Loopback, Refusal::SharedAddressSpace, Refusal::CloudMetadata] {
            assert!(r.as_str().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            assert_eq!(r.to_string(), r.as_str());
        }
    }
}
