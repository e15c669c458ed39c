//! A loaded net: the feature transformer's and the eight layer stacks' parameters, read from and written to
//! Fairy-Stockfish's file format. Reading checks every length and hash, so any bytes give either a net or a
//! precise error, never a panic.

use super::arch::*;
use std::fmt;
use std::path::Path;

/// One of the eight layer stacks: 1024 -> 16 -> 32 -> 1.
#[derive(Clone, PartialEq, Eq)]
pub struct LayerStack {
    pub l1_biases: [i32; L1_OUT],
    /// Row-major, `[output][input]`, as in the file.
    pub l1_weights: Vec<i8>,
    pub l2_biases: [i32; L2_OUT],
    /// Row-major with the input padded to 32, as in the file (the padding is read and written, never used).
    pub l2_weights: Vec<i8>,
    pub l3_bias: i32,
    pub l3_weights: [i8; L3_IN],
    /// The hidden layers' weights regrouped for the kernels: for each group of four inputs, the four weights of
    /// every output in turn (`[input / 4][output][input % 4]`).
    pub(super) l1_grouped: Vec<i8>,
    pub(super) l2_grouped: Vec<i8>,
}

/// A complete net. Shared between threads behind an `Arc`; evaluation never writes to it.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub description: String,
    pub ft_biases: Vec<i16>,
    /// `[feature][512]`.
    pub ft_weights: Vec<i16>,
    /// `[feature][8]`.
    pub psqt_weights: Vec<i32>,
    pub stacks: Vec<LayerStack>,
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read (missing, a folder, no permission).
    Io { path: String, message: String },
    /// The file ends inside `section`.
    Truncated { section: &'static str, offset: usize, needed: usize, available: usize },
    /// The first word is not the version of this format.
    Version { found: u32 },
    /// The header's or a section's hash names another architecture.
    Hash { section: &'static str, found: u32, expected: u32 },
    /// The sizes fit the architecture but with another number of input features: a net of another variant.
    FeatureCount { found: usize },
    /// Bytes follow the last layer stack.
    TrailingBytes { extra: usize },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io { path, message } => write!(f, "cannot read net file {path}: {message}"),
            NetError::Truncated { section, offset, needed, available } => write!(
                f,
                "net file truncated: {section} at byte {offset} needs {needed} bytes, only {available} remain"
            ),
            NetError::Version { found } => {
                write!(f, "not a net of this format: version {found:#010x}, expected {VERSION:#010x}")
            }
            NetError::Hash { section, found, expected } => {
                write!(f, "net of another architecture: {section} hash {found:#010x}, expected {expected:#010x}")
            }
            NetError::FeatureCount { found } => write!(
                f,
                "net of another variant: {found} input features, a Janggi net has {FEATURES} \
                 (9 general points x 13 planes x 90 points)"
            ),
            NetError::TrailingBytes { extra } => write!(f, "net file has {extra} bytes after the last layer"),
        }
    }
}

impl std::error::Error for NetError {}

/// Header: version, hash, description length.
const HEADER_BYTES: usize = 12;
/// Bytes that depend on the feature count, per feature: 512 i16 weights and 8 i32 PSQT weights.
const BYTES_PER_FEATURE: usize = 2 * HALF_DIMENSIONS + 4 * BUCKETS;
/// Bytes after the description that do not depend on the feature count.
const FIXED_BODY_BYTES: usize = 4 + 2 * HALF_DIMENSIONS + BUCKETS * (4 + STACK_BYTES);
/// Bytes after the description of a Janggi net.
pub const BODY_BYTES: usize = FIXED_BODY_BYTES + BYTES_PER_FEATURE * FEATURES;

/// A little-endian reader over a byte slice that reports where it ran out.
struct Cursor<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, section: &'static str) -> Result<&'a [u8], NetError> {
        let available = self.bytes.len() - self.offset;
        if n > available {
            return Err(NetError::Truncated { section, offset: self.offset, needed: n, available });
        }
        let out = &self.bytes[self.offset..self.offset + n];
        self.offset += n;
        Ok(out)
    }

    fn u32(&mut self, section: &'static str) -> Result<u32, NetError> {
        let b = self.take(4, section)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn hash(&mut self, section: &'static str, expected: u32) -> Result<(), NetError> {
        let found = self.u32(section)?;
        if found != expected {
            return Err(NetError::Hash { section, found, expected });
        }
        Ok(())
    }

    fn i16s(&mut self, n: usize, section: &'static str) -> Result<Vec<i16>, NetError> {
        Ok(self.take(2 * n, section)?.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect())
    }

    fn i32s(&mut self, n: usize, section: &'static str) -> Result<Vec<i32>, NetError> {
        Ok(self.take(4 * n, section)?.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    fn i8s(&mut self, n: usize, section: &'static str) -> Result<Vec<i8>, NetError> {
        Ok(self.take(n, section)?.iter().map(|&b| b as i8).collect())
    }
}

/// Regroups row-major `[outputs][padded_inputs]` weights into `[inputs / 4][outputs][4]` (only `inputs` used).
fn group_by_four(row_major: &[i8], outputs: usize, padded_inputs: usize, inputs: usize) -> Vec<i8> {
    let mut out = vec![0i8; outputs * inputs];
    for o in 0..outputs {
        for i in 0..inputs {
            out[(i / 4 * outputs + o) * 4 + i % 4] = row_major[o * padded_inputs + i];
        }
    }
    out
}

impl LayerStack {
    /// Builds a stack from its file-order parameters (and derives the kernels' layouts).
    pub fn new(
        l1_biases: [i32; L1_OUT],
        l1_weights: Vec<i8>,
        l2_biases: [i32; L2_OUT],
        l2_weights: Vec<i8>,
        l3_bias: i32,
        l3_weights: [i8; L3_IN],
    ) -> LayerStack {
        assert_eq!(l1_weights.len(), L1_OUT * TRANSFORMED_DIMENSIONS);
        assert_eq!(l2_weights.len(), L2_OUT * L2_IN_PADDED);
        let l1_grouped = group_by_four(&l1_weights, L1_OUT, TRANSFORMED_DIMENSIONS, TRANSFORMED_DIMENSIONS);
        let l2_grouped = group_by_four(&l2_weights, L2_OUT, L2_IN_PADDED, L1_OUT);
        LayerStack { l1_biases, l1_weights, l2_biases, l2_weights, l3_bias, l3_weights, l1_grouped, l2_grouped }
    }

    fn read(c: &mut Cursor<'_>) -> Result<LayerStack, NetError> {
        c.hash("layer stack", stack_hash())?;
        let l1_biases = c.i32s(L1_OUT, "first hidden layer")?;
        let l1_weights = c.i8s(L1_OUT * TRANSFORMED_DIMENSIONS, "first hidden layer")?;
        let l2_biases = c.i32s(L2_OUT, "second hidden layer")?;
        let l2_weights = c.i8s(L2_OUT * L2_IN_PADDED, "second hidden layer")?;
        let l3_bias = c.i32s(1, "output layer")?[0];
        let l3_weights = c.i8s(L3_IN, "output layer")?;
        Ok(LayerStack::new(
            l1_biases.try_into().expect("length read above"),
            l1_weights,
            l2_biases.try_into().expect("length read above"),
            l2_weights,
            l3_bias,
            l3_weights.try_into().expect("length read above"),
        ))
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&stack_hash().to_le_bytes());
        self.l1_biases.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        out.extend(self.l1_weights.iter().map(|&v| v as u8));
        self.l2_biases.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        out.extend(self.l2_weights.iter().map(|&v| v as u8));
        out.extend_from_slice(&self.l3_bias.to_le_bytes());
        out.extend(self.l3_weights.iter().map(|&v| v as u8));
    }
}

impl Network {
    /// Reads a net from the bytes of a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let mut c = Cursor { bytes, offset: 0 };
        let version = c.u32("header")?;
        if version != VERSION {
            return Err(NetError::Version { found: version });
        }
        c.hash("header", network_hash())?;
        let length = c.u32("header")? as usize;
        let description = String::from_utf8_lossy(c.take(length, "description")?).into_owned();

        // The body's length tells a net of another variant (another feature count) from a cut-off file.
        let body = bytes.len() - c.offset;
        if body != BODY_BYTES && body > FIXED_BODY_BYTES && (body - FIXED_BODY_BYTES).is_multiple_of(BYTES_PER_FEATURE)
        {
            c.hash("feature transformer", transformer_hash())?;
            return Err(NetError::FeatureCount { found: (body - FIXED_BODY_BYTES) / BYTES_PER_FEATURE });
        }

        c.hash("feature transformer", transformer_hash())?;
        let ft_biases = c.i16s(HALF_DIMENSIONS, "feature transformer biases")?;
        let ft_weights = c.i16s(HALF_DIMENSIONS * FEATURES, "feature transformer weights")?;
        let psqt_weights = c.i32s(BUCKETS * FEATURES, "feature transformer PSQT weights")?;
        let mut stacks = Vec::with_capacity(BUCKETS);
        for _ in 0..BUCKETS {
            stacks.push(LayerStack::read(&mut c)?);
        }
        let extra = bytes.len() - c.offset;
        if extra != 0 {
            return Err(NetError::TrailingBytes { extra });
        }
        Ok(Network { description, ft_biases, ft_weights, psqt_weights, stacks })
    }

    /// Reads a net file.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes = crate::platform::files::read(path)
            .map_err(|e| NetError::Io { path: path.display().to_string(), message: e.to_string() })?;
        Network::from_bytes(&bytes)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.description.len() + BODY_BYTES);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&network_hash().to_le_bytes());
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        out.extend_from_slice(&transformer_hash().to_le_bytes());
        self.ft_biases.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        self.ft_weights.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        self.psqt_weights.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        for stack in &self.stacks {
            stack.write(&mut out);
        }
        out
    }

    /// The transformer's weight row of a feature.
    #[inline(always)]
    pub(super) fn ft_row(&self, feature: usize) -> &super::kernels::Row {
        self.ft_weights[feature * HALF_DIMENSIONS..(feature + 1) * HALF_DIMENSIONS].try_into().expect("512 weights")
    }

    /// The PSQT weights of a feature, one per bucket.
    #[inline(always)]
    pub(super) fn psqt_row(&self, feature: usize) -> &[i32] {
        &self.psqt_weights[feature * BUCKETS..(feature + 1) * BUCKETS]
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({:?})", self.description)
    }
}
