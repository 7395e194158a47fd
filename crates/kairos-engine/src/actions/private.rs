//! `deny_private_targets` (`kairos serve --deny-private-targets`): actions may not reach
//! loopback, private, link-local and other non-public addresses.
//!
//! Why at connect time, on addresses: a check of the host name before sending is worthless
//! against DNS rebinding (the name resolves to a public address for the check and to 127.0.0.1
//! for the connection). So the rule sits in the one place every connection's addresses come
//! from, the HTTP client's DNS resolver ([`PublicOnlyResolver`]): it resolves the name itself
//! and hands the connector only the public addresses, or fails when there are none. A URL whose
//! host is an IP literal is never resolved, and its address cannot change, so it is checked as
//! it is, before each request and each redirect hop ([`check_url`]). Proxies are turned off
//! while the rule is on: a proxy resolves the name itself, out of our sight.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The kind of non-public range `ip` is in, or `None` for a public (globally routable) address.
pub fn non_public_range(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_range(v4),
        IpAddr::V6(v6) => v6_range(v6),
    }
}

fn v4_range(ip: Ipv4Addr) -> Option<&'static str> {
    Some(match ip.octets() {
        [0, ..] => "unspecified (0.0.0.0/8)",
        [127, ..] => "loopback (127.0.0.0/8)",
        [10, ..] => "private (10.0.0.0/8)",
        [172, b, ..] if (16..32).contains(&b) => "private (172.16.0.0/12)",
        [192, 168, ..] => "private (192.168.0.0/16)",
        [169, 254, ..] => "link-local (169.254.0.0/16)",
        [100, b, ..] if (64..128).contains(&b) => "shared address space (100.64.0.0/10)",
        [192, 0, 0, _] => "IETF protocol assignment (192.0.0.0/24)",
        [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _] => "documentation",
        [198, 18 | 19, ..] => "benchmarking (198.18.0.0/15)",
        [224..=239, ..] => "multicast (224.0.0.0/4)",
        [240..=255, ..] => "reserved or broadcast (240.0.0.0/4)",
        _ => return None,
    })
}

fn v6_range(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    let embedded_v4 = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    if let Some(v4) = ip.to_ipv4_mapped() {
        // ::ffff:a.b.c.d reaches the IPv4 address.
        return v4_range(v4);
    }
    if ip.is_unspecified() {
        return Some("unspecified (::)");
    }
    if ip.is_loopback() {
        return Some("loopback (::1)");
    }
    match s[0] {
        x if x & 0xfe00 == 0xfc00 => return Some("unique local (fc00::/7)"),
        x if x & 0xffc0 == 0xfe80 => return Some("link-local (fe80::/10)"),
        x if x & 0xffc0 == 0xfec0 => return Some("site-local (fec0::/10)"),
        x if x & 0xff00 == 0xff00 => return Some("multicast (ff00::/8)"),
        _ => {}
    }
    if s[..6] == [0; 6] {
        return Some("IPv4-compatible (::/96)");
    }
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0; 4] {
        // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address.
        return v4_range(embedded_v4(s[6], s[7]));
    }
    if s[0] == 0x2002 {
        // 6to4 (2002::/16) embeds an IPv4 address in its next 32 bits.
        return v4_range(embedded_v4(s[1], s[2]));
    }
    if s[0] == 0x2001 && s[1] == 0x0db8 {
        return Some("documentation (2001:db8::/32)");
    }
    None
}

/// A target the rule refuses. Its `Display` is the sentence for the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PrivateTarget {
    /// The host name when the address came from DNS.
    host: Option<String>,
    ip: IpAddr,
    range: &'static str,
}

impl fmt::Display for PrivateTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.host {
            Some(host) => write!(f, "'{host}' resolves to {}", self.ip)?,
            None => write!(f, "the target is {}", self.ip)?,
        }
        write!(
            f,
            ", a {} address; this server refuses private and local targets (--deny-private-targets)",
            self.range
        )
    }
}

impl std::error::Error for PrivateTarget {}

/// Refuse `url` when its host is an IP literal in a non-public range. Host names are left to
/// [`PublicOnlyResolver`], at connect time.
pub(crate) fn check_url(url: &url::Url) -> Result<(), PrivateTarget> {
    let ip = match url.host() {
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
        _ => return Ok(()),
    };
    match non_public_range(ip) {
        Some(range) => Err(PrivateTarget {
            host: None,
            ip,
            range,
        }),
        None => Ok(()),
    }
}

/// The HTTP client's DNS resolver while the rule is on: the system resolver (getaddrinfo, on
/// the blocking pool, like reqwest's default), minus every non-public address.
#[derive(Debug, Default)]
pub(crate) struct PublicOnlyResolver;

impl reqwest::dns::Resolve for PublicOnlyResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            let resolved: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let (public, refused): (Vec<SocketAddr>, Vec<SocketAddr>) = resolved
                .into_iter()
                .partition(|a| non_public_range(a.ip()).is_none());
            if public.is_empty() {
                if let Some(first) = refused.first() {
                    let ip = first.ip();
                    let range = non_public_range(ip).unwrap_or("non-public");
                    return Err(Box::new(PrivateTarget {
                        host: Some(host),
                        ip,
                        range,
                    })
                        as Box<dyn std::error::Error + Send + Sync>);
                }
            }
            if !refused.is_empty() {
                tracing::debug!(%host, refused = refused.len(), "non-public addresses left out");
            }
            let addrs: reqwest::dns::Addrs = Box::new(public.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let refused = [
            "0.0.0.0",
            "127.0.0.1",
            "127.255.0.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "192.0.0.8",
            "192.0.2.1",
            "198.18.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "::127.0.0.1",
            "64:ff9b::7f00:1",
            "2002:7f00:1::",
            "2001:db8::1",
        ];
        for text in refused {
            let ip: IpAddr = text.parse().unwrap();
            assert!(non_public_range(ip).is_some(), "{text} is not public");
        }
        let public = [
            "1.1.1.1",
            "8.8.8.8",
            "172.15.255.255",
            "172.32.0.1",
            "100.128.0.1",
            "192.0.1.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::",
        ];
        for text in public {
            let ip: IpAddr = text.parse().unwrap();
            assert_eq!(non_public_range(ip), None, "{text} is public");
        }
    }

    #[test]
    fn literal_hosts_are_checked_and_names_are_left_to_the_resolver() {
        let check = |u: &str| check_url(&url::Url::parse(u).unwrap()).map_err(|e| e.to_string());
        assert!(check("http://127.0.0.1:8080/x")
            .unwrap_err()
            .contains("127.0.0.1, a loopback (127.0.0.0/8) address"));
        assert!(check("http://[::1]/").is_err());
        assert!(check("http://[::ffff:192.168.0.1]/").is_err());
        assert!(check("https://93.184.215.14/").is_ok());
        assert!(
            check("http://localhost/").is_ok(),
            "a name: the resolver decides"
        );
    }
}
