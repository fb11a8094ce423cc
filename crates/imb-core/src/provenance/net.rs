//! The host's network devices (/sys/class/net) and InfiniBand/RoCE devices
//! (/sys/class/infiniband), as the rank that reads them sees them: a network namespace shows
//! its own devices.

use super::sysfs::{first_line, is_virtual, Root};
use serde::{Deserialize, Serialize};

/// One network interface.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NetDevice {
    pub name: String,
    /// From its ARPHRD type: `ethernet`, `loopback`, `infiniband`, … or `arphrd N`.
    pub kind: String,
    /// A software device (/sys/devices/virtual: loopback, bridge, veth, tunnel).
    #[serde(rename = "virtual")]
    pub is_virtual: bool,
    pub wireless: bool,
    pub operstate: Option<String>,
    /// Megabits per second; None where the driver does not say (down, virtual, many VMs).
    pub speed_mbps: Option<u64>,
    pub mtu: Option<u64>,
    /// The kernel driver behind a hardware device.
    pub driver: Option<String>,
}

/// The name of an ARPHRD type (linux/if_arp.h) the benchmarks care about.
pub fn arphrd_kind(t: u32) -> String {
    match t {
        1 => "ethernet".to_string(),
        32 => "infiniband".to_string(),
        65534 => "none (tunnel)".to_string(),
        772 => "loopback".to_string(),
        776 => "ipv6-in-ipv4".to_string(),
        778 => "gre".to_string(),
        801 => "802.11".to_string(),
        n => format!("arphrd {n}"),
    }
}

/// A sysfs `speed`: Mb/s, where -1 (or an unreadable file) means unknown.
pub fn speed(text: &str) -> Option<u64> {
    text.trim()
        .parse::<i64>()
        .ok()
        .and_then(|s| u64::try_from(s).ok())
}

pub fn devices(root: &Root) -> Result<Vec<NetDevice>, String> {
    Ok(root
        .entries("/sys/class/net")?
        .into_iter()
        // bonding_masters is a file, not a device.
        .filter(|(_, dir)| dir.join("type").exists())
        .map(|(name, dir)| {
            let line = |f: &str| first_line(&dir.join(f));
            let kind = line("type")
                .and_then(|t| t.parse().ok())
                .map_or_else(|| "unknown".to_string(), arphrd_kind);
            let driver = std::fs::read_link(dir.join("device/driver"))
                .ok()
                .and_then(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()));
            NetDevice {
                kind,
                is_virtual: is_virtual(&dir),
                wireless: dir.join("wireless").exists() || dir.join("phy80211").exists(),
                operstate: line("operstate"),
                speed_mbps: line("speed").as_deref().and_then(speed),
                mtu: line("mtu").and_then(|t| t.parse().ok()),
                driver,
                name,
            }
        })
        .collect())
}

/// One InfiniBand or RoCE port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IbPort {
    pub port: String,
    /// `4: ACTIVE`.
    pub state: Option<String>,
    /// `100 Gb/sec (4X EDR)`.
    pub rate: Option<String>,
    /// `InfiniBand` or `Ethernet` (RoCE).
    pub link_layer: Option<String>,
}

/// One RDMA device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IbDevice {
    pub name: String,
    pub fw_ver: Option<String>,
    pub node_type: Option<String>,
    pub ports: Vec<IbPort>,
}

/// The RDMA devices; none (not absent) when the host has no /sys/class/infiniband.
pub fn infiniband(root: &Root) -> Result<Vec<IbDevice>, String> {
    if !root.exists("/sys/class/infiniband") {
        return Ok(Vec::new());
    }
    Ok(root
        .entries("/sys/class/infiniband")?
        .into_iter()
        .map(|(name, dir)| {
            let line = |f: &str| first_line(&dir.join(f));
            let ports = std::fs::read_dir(dir.join("ports"))
                .map(|rd| {
                    let mut v: Vec<(String, std::path::PathBuf)> = rd
                        .filter_map(|e| e.ok())
                        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
                        .collect();
                    v.sort();
                    v
                })
                .unwrap_or_default()
                .into_iter()
                .map(|(port, p)| {
                    let pl = |f: &str| first_line(&p.join(f));
                    IbPort {
                        state: pl("state"),
                        rate: pl("rate"),
                        link_layer: pl("link_layer"),
                        port,
                    }
                })
                .collect();
            IbDevice {
                fw_ver: line("fw_ver"),
                node_type: line("node_type"),
                ports,
                name,
            }
        })
        .collect())
}
