//! `uniqueString`: Azure's own algorithm, so names built with it match what a deployment to
//! Azure would create. Azure joins the arguments with `-`, hashes the UTF-8 bytes with a 64-bit
//! MurmurHash variant (two 32-bit lanes with its own constants, from Microsoft's MIT-licensed
//! expression engine) and writes the top 65 bits as 13 lowercase RFC 4648 base-32 letters.
//! Public reimplementations agree on it; the tests check the known outputs
//! (`uniqueString('test')` is `rbgf3xv4ufgzg`).

const C1: u32 = 2_869_860_233;
const C2: u32 = 597_399_067;
const C3: u32 = 2_246_822_507;
const C4: u32 = 3_266_489_909;
const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// The 13-character `uniqueString` of the given arguments.
pub fn unique_string(parts: &[&str]) -> String {
    let mut hash = murmur64(parts.join("-").as_bytes());
    (0..13)
        .map(|_| {
            let letter = ALPHABET[(hash >> 59) as usize] as char;
            hash <<= 5;
            letter
        })
        .collect()
}

fn le32(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &b)| acc | (u32::from(b) << (8 * i)))
}

fn murmur64(data: &[u8]) -> u64 {
    let (mut h1, mut h2) = (0u32, 0u32);
    let mut chunks = data.chunks_exact(8);
    for chunk in &mut chunks {
        let k1 = le32(&chunk[..4])
            .wrapping_mul(C2)
            .rotate_left(15)
            .wrapping_mul(C1);
        let k2 = le32(&chunk[4..])
            .wrapping_mul(C1)
            .rotate_left(17)
            .wrapping_mul(C2);
        h1 = (h1 ^ k1)
            .rotate_left(19)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(1_444_728_091);
        h2 = (h2 ^ k2)
            .rotate_left(13)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(197_830_471);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let k1 = le32(&tail[..tail.len().min(4)])
            .wrapping_mul(C2)
            .rotate_left(15)
            .wrapping_mul(C1);
        h1 ^= k1;
        if tail.len() > 4 {
            let k2 = le32(&tail[4..])
                .wrapping_mul(C1)
                .rotate_left(17)
                .wrapping_mul(C2);
            h2 ^= k2;
        }
    }
    // The length is folded in as a 32-bit value, as the original does.
    let length = data.len() as u32;
    h1 ^= length;
    h2 ^= length;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    (u64::from(h2) << 32) | u64::from(h1)
}

fn fmix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(C3);
    h ^= h >> 13;
    h = h.wrapping_mul(C4);
    h ^ (h >> 16)
}
