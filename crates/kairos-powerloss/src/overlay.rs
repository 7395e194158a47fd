//! The unsynced data of one file: whole pages written since its last fsync, and its size.
//!
//! The backing file holds only what was synced. Reads merge the two, so the mount shows every
//! write at once; `apply` writes the pages into the backing file (fsync), and `tear` writes a
//! random subset of them (a power loss in the middle of the disk's writeback).

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

/// The granularity of torn writes and of the overlay: the page size of x86-64 and of SQLite's
/// default page.
pub const PAGE: u64 = 4096;

#[derive(Debug, Default)]
pub(crate) struct Overlay {
    /// Page index -> the page's whole content as the mount shows it (the backing bytes merged in
    /// when the page was first written, so applying a page never needs the backing file again).
    pages: BTreeMap<u64, Box<[u8]>>,
    /// The size the mount shows, when a write or a truncation changed it since the last sync.
    size: Option<u64>,
    /// The smallest size the file was truncated to since the last sync: backing bytes at or past
    /// it were cut off and read as zeros, even if the file grew again afterwards.
    cut: Option<u64>,
}

impl Overlay {
    pub(crate) fn is_clean(&self) -> bool {
        self.pages.is_empty() && self.size.is_none() && self.cut.is_none()
    }

    pub(crate) fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// The size the mount shows for a backing file of `backing_len` bytes.
    pub(crate) fn size(&self, backing_len: u64) -> u64 {
        self.size.unwrap_or(backing_len)
    }

    /// How many bytes of the backing file are still visible (never more than `size`).
    fn visible(&self, backing_len: u64) -> u64 {
        self.cut.map_or(backing_len, |cut| cut.min(backing_len))
    }

    /// Fills `buf` with the backing bytes at `offset`, zeros past the visible end.
    fn read_backing(
        &self,
        file: &File,
        backing_len: u64,
        offset: u64,
        buf: &mut [u8],
    ) -> io::Result<()> {
        buf.fill(0);
        let visible = self.visible(backing_len);
        if offset >= visible {
            return Ok(());
        }
        let want = buf
            .len()
            .min(usize::try_from(visible - offset).unwrap_or(usize::MAX));
        let mut done = 0;
        while done < want {
            // A short read past the backing end leaves zeros, as a sparse tail would.
            let n = file.read_at(&mut buf[done..want], offset + done as u64)?;
            if n == 0 {
                break;
            }
            done += n;
        }
        Ok(())
    }

    pub(crate) fn read(&self, file: &File, offset: u64, len: u32) -> io::Result<Vec<u8>> {
        let backing_len = file.metadata()?.len();
        let end = (offset + u64::from(len)).min(self.size(backing_len));
        if offset >= end {
            return Ok(Vec::new());
        }
        let mut out = vec![0; (end - offset) as usize];
        let mut pos = offset;
        while pos < end {
            let index = pos / PAGE;
            let in_page = (pos % PAGE) as usize;
            let n = (PAGE - pos % PAGE).min(end - pos) as usize;
            let at = (pos - offset) as usize;
            let dst = &mut out[at..at + n];
            match self.pages.get(&index) {
                Some(page) => dst.copy_from_slice(&page[in_page..in_page + n]),
                None => self.read_backing(file, backing_len, pos, dst)?,
            }
            pos += n as u64;
        }
        Ok(out)
    }

    pub(crate) fn write(&mut self, file: &File, offset: u64, data: &[u8]) -> io::Result<()> {
        let backing_len = file.metadata()?.len();
        let live = self.size(backing_len);
        let end = offset + data.len() as u64;
        let mut pos = offset;
        while pos < end {
            let index = pos / PAGE;
            let in_page = (pos % PAGE) as usize;
            let n = (PAGE - pos % PAGE).min(end - pos) as usize;
            if !self.pages.contains_key(&index) {
                let mut page = vec![0; PAGE as usize].into_boxed_slice();
                self.read_backing(file, backing_len, index * PAGE, &mut page)?;
                self.pages.insert(index, page);
            }
            let page = self.pages.get_mut(&index).expect("inserted above");
            let at = (pos - offset) as usize;
            page[in_page..in_page + n].copy_from_slice(&data[at..at + n]);
            pos += n as u64;
        }
        self.size = Some(live.max(end));
        Ok(())
    }

    pub(crate) fn truncate(&mut self, backing_len: u64, new_size: u64) {
        let live = self.size(backing_len);
        if new_size < live {
            // Pages wholly past the new end go; the partial last page keeps zeros past it, so a
            // later extension reads zeros there as on a real file.
            drop(self.pages.split_off(&new_size.div_ceil(PAGE)));
            if !new_size.is_multiple_of(PAGE) {
                if let Some(page) = self.pages.get_mut(&(new_size / PAGE)) {
                    page[(new_size % PAGE) as usize..].fill(0);
                }
            }
            self.cut = Some(self.cut.map_or(new_size, |cut| cut.min(new_size)));
        }
        self.size = Some(new_size);
    }

    /// fsync: makes the backing file what the mount shows, and forgets the overlay.
    pub(crate) fn apply(&mut self, file: &File) -> io::Result<()> {
        if self.is_clean() {
            return Ok(());
        }
        let backing_len = file.metadata()?.len();
        let live = self.size(backing_len);
        if let Some(cut) = self.cut {
            if cut < backing_len {
                file.set_len(cut)?;
            }
        }
        write_pages(file, live, self.pages.iter())?;
        if file.metadata()?.len() != live {
            file.set_len(live)?;
        }
        *self = Overlay::default();
        Ok(())
    }

    /// A torn power loss: each unsynced page reaches the backing file or not, by `rng`. Sizes
    /// and truncations are not applied (only what a page write itself extends). Returns how many
    /// pages were kept; the overlay is empty afterwards.
    pub(crate) fn tear(&mut self, file: &File, rng: &mut SplitMix64) -> io::Result<usize> {
        let live = self.size(file.metadata()?.len());
        let kept: Vec<_> = self.pages.iter().filter(|_| rng.next() & 1 == 1).collect();
        let count = kept.len();
        write_pages(file, live, kept.into_iter())?;
        *self = Overlay::default();
        Ok(count)
    }
}

/// Writes pages into the backing file, each cut at `live` (the size the mount showed).
fn write_pages<'a>(
    file: &File,
    live: u64,
    pages: impl Iterator<Item = (&'a u64, &'a Box<[u8]>)>,
) -> io::Result<()> {
    for (index, page) in pages {
        let start = index * PAGE;
        if start >= live {
            continue;
        }
        let n = PAGE.min(live - start) as usize;
        file.write_all_at(&page[..n], start)?;
    }
    Ok(())
}

/// A small seeded generator, so a torn power loss can be replayed from its seed (no `rand`
/// dependency for one coin flip per page).
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_with(content: &[u8]) -> (tempfile::NamedTempFile, File) {
        let tmp = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(tmp.path(), content).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(tmp.path())
            .unwrap();
        (tmp, file)
    }

    #[test]
    fn writes_show_at_once_and_reach_the_file_only_when_applied() {
        let (tmp, file) = file_with(b"hello world");
        let mut overlay = Overlay::default();
        overlay.write(&file, 6, b"there, friend").unwrap();
        assert_eq!(overlay.read(&file, 0, 100).unwrap(), b"hello there, friend");
        assert_eq!(std::fs::read(tmp.path()).unwrap(), b"hello world");
        overlay.apply(&file).unwrap();
        assert!(overlay.is_clean());
        assert_eq!(std::fs::read(tmp.path()).unwrap(), b"hello there, friend");
    }

    #[test]
    fn a_truncation_then_growth_reads_zeros_where_the_old_bytes_were() {
        let (tmp, file) = file_with(&[7u8; 10_000]);
        let mut overlay = Overlay::default();
        overlay.truncate(10_000, 100);
        overlay.write(&file, 5000, b"x").unwrap();
        let read = overlay.read(&file, 0, 10_000).unwrap();
        assert_eq!(read.len(), 5001);
        assert!(read[..100].iter().all(|b| *b == 7));
        assert!(read[100..5000].iter().all(|b| *b == 0));
        overlay.apply(&file).unwrap();
        assert_eq!(std::fs::read(tmp.path()).unwrap(), read);
    }

    #[test]
    fn tearing_keeps_whole_pages_and_the_same_ones_for_the_same_seed() {
        let run = |seed| {
            let (tmp, file) = file_with(&[0u8; 16 * PAGE as usize]);
            let mut overlay = Overlay::default();
            overlay.write(&file, 0, &[1u8; 16 * PAGE as usize]).unwrap();
            let kept = overlay.tear(&file, &mut SplitMix64::new(seed)).unwrap();
            let bytes = std::fs::read(tmp.path()).unwrap();
            let pages: Vec<u8> = bytes.chunks(PAGE as usize).map(|p| p[0]).collect();
            for page in bytes.chunks(PAGE as usize) {
                assert!(page.iter().all(|b| *b == page[0]), "a page was split");
            }
            assert_eq!(pages.iter().filter(|p| **p == 1).count(), kept);
            pages
        };
        let first = run(42);
        assert_eq!(first, run(42));
        assert!(
            first.contains(&0) && first.contains(&1),
            "16 coin flips, some of each: {first:?}"
        );
    }
}
