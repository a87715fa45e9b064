//! The little-endian fields and the FNV-1a checksum of the checkpoint
//! files: one reader and one checksum for the NNUE's and the policy
//! trainer's formats, so that both read and check their bytes the same way.

/// Bytes of the checksum that ends every checkpoint.
pub(crate) const CHECKSUM: usize = 8;

/// Why fields were refused, in neither checkpoint's words: each format
/// turns it into its own error (`From` impls), whose messages name the
/// format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FieldError {
    /// Shorter than the fixed header (its length).
    TooShort(usize),
    /// The magic bytes are wrong.
    Magic,
    /// A format version this code does not read.
    Version(u32),
    /// A field holds an impossible value (or lies past the end).
    Invalid(String),
    /// The bytes do not match the checksum.
    Checksum {
        /// Checksum stored at the end.
        expected: u64,
        /// Checksum of the bytes read.
        got: u64,
    },
}

/// FNV-1a (64-bit) of `bytes`.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// Appends the checksum of everything in `out`.
pub(crate) fn seal(out: &mut Vec<u8>) {
    let sum = fnv1a64(out);
    out.extend_from_slice(&sum.to_le_bytes());
}

/// A reader of `bytes` after their magic and format version, which must
/// be `magic` and `version`, refusing first a file shorter than `min`.
pub(crate) fn open<'a>(
    bytes: &'a [u8],
    min: usize,
    magic: &[u8; 8],
    version: u32,
) -> Result<Fields<'a>, FieldError> {
    if bytes.len() < min {
        return Err(FieldError::TooShort(bytes.len()));
    }
    if bytes.get(..8) != Some(magic) {
        return Err(FieldError::Magic);
    }
    let mut f = Fields::at(bytes, 8);
    let found = f.u32()?;
    if found != version {
        return Err(FieldError::Version(found));
    }
    Ok(f)
}

/// Checks the checksum that ends `bytes` against the bytes before it.
pub(crate) fn check_seal(bytes: &[u8]) -> Result<(), FieldError> {
    let body = bytes.len().saturating_sub(CHECKSUM);
    let stored = Fields::at(bytes, body).u64()?;
    let computed = fnv1a64(&bytes[..body]);
    if stored != computed {
        return Err(FieldError::Checksum {
            expected: stored,
            got: computed,
        });
    }
    Ok(())
}

/// Reads little-endian fields from a slice, from a position that moves on
/// with each field; a field past the end is refused, never a panic.
pub(crate) struct Fields<'a> {
    bytes: &'a [u8],
    /// Where the next field starts.
    pub(crate) at: usize,
}

impl<'a> Fields<'a> {
    /// A reader of `bytes` from byte `at`.
    pub(crate) fn at(bytes: &'a [u8], at: usize) -> Fields<'a> {
        Fields { bytes, at }
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], FieldError> {
        let out = self
            .bytes
            .get(self.at..self.at.saturating_add(N))
            .and_then(|s| <[u8; N]>::try_from(s).ok())
            .ok_or_else(|| FieldError::Invalid("a field past the end".into()))?;
        self.at += N;
        Ok(out)
    }

    pub(crate) fn u32(&mut self) -> Result<u32, FieldError> {
        self.take().map(u32::from_le_bytes)
    }

    pub(crate) fn u64(&mut self) -> Result<u64, FieldError> {
        self.take().map(u64::from_le_bytes)
    }

    pub(crate) fn f32(&mut self) -> Result<f32, FieldError> {
        self.take().map(f32::from_le_bytes)
    }

    pub(crate) fn f64(&mut self) -> Result<f64, FieldError> {
        self.take().map(f64::from_le_bytes)
    }

    /// `n` floats.
    pub(crate) fn floats(&mut self, n: usize) -> Result<Vec<f32>, FieldError> {
        let bytes = n
            .checked_mul(4)
            .and_then(|len| self.bytes.get(self.at..self.at.checked_add(len)?))
            .ok_or_else(|| FieldError::Invalid("weights past the end".into()))?;
        self.at += bytes.len();
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_values() {
        assert_eq!(fnv1a64(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xAF63_DC4C_8601_EC8C);
    }

    #[test]
    fn a_sealed_buffer_checks_and_a_changed_one_does_not() {
        let mut out = vec![1, 2, 3];
        seal(&mut out);
        assert_eq!(check_seal(&out), Ok(()));
        out[0] ^= 1;
        assert!(matches!(check_seal(&out), Err(FieldError::Checksum { .. })));
        assert!(check_seal(&[1, 2]).is_err(), "too short: refused");
    }

    #[test]
    fn open_checks_length_magic_and_version_in_that_order() {
        let mut file = b"MAGICXYZ".to_vec();
        file.extend_from_slice(&3u32.to_le_bytes());
        assert_eq!(
            open(&file, 13, b"MAGICXYZ", 3).err(),
            Some(FieldError::TooShort(12))
        );
        assert_eq!(
            open(&file, 12, b"OTHERXYZ", 4).err(),
            Some(FieldError::Magic)
        );
        assert_eq!(
            open(&file, 12, b"MAGICXYZ", 4).err(),
            Some(FieldError::Version(3))
        );
        assert_eq!(open(&file, 12, b"MAGICXYZ", 3).map(|f| f.at), Ok(12));
    }

    #[test]
    fn fields_past_the_end_are_refused() {
        let bytes = 7u32.to_le_bytes();
        let mut f = Fields::at(&bytes, 0);
        assert_eq!(f.u32(), Ok(7));
        assert!(f.u32().is_err());
        assert!(Fields::at(&bytes, 0).floats(2).is_err());
        assert!(Fields::at(&bytes, 0).floats(usize::MAX).is_err());
    }
}
