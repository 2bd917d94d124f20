//! The trainer's data on disk: the samples' file format, the chunk files of a directory (one
//! seeded chunk of games each, held out or fitted by its number), and the runs that fill
//! them.

use super::selfplay::{play_chunk, relabel};
use super::{Sample, SelfPlay, parallel_map};
use montello_engine::Bitboard;
use montello_engine::eval::Weights;
use std::io::{self, Read, Write};
use std::path::Path;

/// The data file's magic; files without it are the first format (18-byte samples without
/// the search value).
const DATA_MAGIC: &[u8; 8] = b"MSAMPLE2";
const SAMPLE_BYTES_V1: usize = 18;
const SAMPLE_BYTES: usize = 20;
/// `search` of a sample that has none.
const NO_SEARCH: i16 = i16::MIN;

/// Writes samples in the trainer's data format (a magic, then 20 bytes each,
/// little-endian), atomically: a chunk file exists only when complete, so a killed run
/// resumes cleanly.
pub fn write_samples(path: &Path, samples: &[Sample]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(8 + samples.len() * SAMPLE_BYTES);
    buf.extend_from_slice(DATA_MAGIC);
    for s in samples {
        buf.extend_from_slice(&s.p.0.to_le_bytes());
        buf.extend_from_slice(&s.o.0.to_le_bytes());
        buf.push(s.label as u8);
        buf.push(u8::from(s.exact));
        buf.extend_from_slice(&s.search.unwrap_or(NO_SEARCH).to_le_bytes());
    }
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&buf)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// Reads a data file written by [`write_samples`] (or by the first format).
pub fn read_samples(path: &Path) -> io::Result<Vec<Sample>> {
    let mut buf = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut buf)?;
    let (body, size) = match buf.strip_prefix(DATA_MAGIC.as_slice()) {
        Some(body) => (body, SAMPLE_BYTES),
        None => (buf.as_slice(), SAMPLE_BYTES_V1),
    };
    if body.len() % size != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: {} bytes is not a whole number of {size}-byte samples",
                path.display(),
                body.len()
            ),
        ));
    }
    let word = |b: &[u8]| {
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        u64::from_le_bytes(a)
    };
    Ok(body
        .chunks_exact(size)
        .map(|c| Sample {
            p: Bitboard(word(&c[0..8])),
            o: Bitboard(word(&c[8..16])),
            label: c[16] as i8,
            exact: c[17] != 0,
            search: (size == SAMPLE_BYTES)
                .then(|| i16::from_le_bytes([c[18], c[19]]))
                .filter(|&v| v != NO_SEARCH),
        })
        .collect())
}

/// [`relabel`] over the first `limit` chunks of `from` (all of them when `None`), written to
/// `to` (chunks already there are kept, so an interrupted run resumes), `threads` at a time.
pub fn relabel_dir(
    w: &Weights,
    from: &Path,
    to: &Path,
    cfg: &SelfPlay,
    limit: Option<usize>,
    threads: usize,
    progress: &(dyn Fn(&Path) + Sync),
) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut files: Vec<_> = std::fs::read_dir(from)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    files.sort();
    files.truncate(limit.unwrap_or(usize::MAX));
    parallel_map(files.len(), threads, |i| {
        let src = &files[i];
        let Some(name) = src.file_name() else {
            return Ok(());
        };
        let dst = to.join(name);
        if dst.exists() {
            return Ok(());
        }
        let mut samples = read_samples(src)?;
        relabel(w, &mut samples, cfg);
        write_samples(&dst, &samples)?;
        progress(&dst);
        Ok(())
    })
    .into_iter()
    .collect()
}

/// Chunks whose number is `19 mod 20` are held out of the fit and measure it.
pub fn is_holdout(chunk: u64) -> bool {
    chunk % 20 == 19
}

/// The chunk file of chunk `chunk` in `dir`.
pub fn chunk_path(dir: &Path, chunk: u64) -> std::path::PathBuf {
    dir.join(format!("chunk-{chunk:05}.bin"))
}

/// Plays chunks `0..chunks` of `games_per_chunk` games into `dir`, `threads` at a time,
/// skipping chunks already written (so a killed run resumes). Calls `progress` after each
/// chunk with its number and sample count.
pub fn self_play_to_dir(
    w: &Weights,
    cfg: &SelfPlay,
    seed: u64,
    dir: &Path,
    chunks: u64,
    games_per_chunk: usize,
    threads: usize,
    progress: &(dyn Fn(u64, usize) + Sync),
) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    parallel_map(chunks as usize, threads, |i| {
        let chunk = i as u64;
        let path = chunk_path(dir, chunk);
        if path.exists() {
            return Ok(());
        }
        let samples = play_chunk(w, cfg, seed, chunk, games_per_chunk);
        write_samples(&path, &samples)?;
        progress(chunk, samples.len());
        Ok(())
    })
    .into_iter()
    .collect()
}

/// Writes the samples of real games into `dir`: chunk `k` holds games `k * games_per_chunk`
/// onwards (`games` in a fixed order, each with its file's perfect-play depth), positions at
/// `exact` empty squares or fewer solved exactly ([`super::game_samples`]); `threads` chunks
/// at a time, skipping chunks already written (a killed run resumes). Returns the positions
/// written by this run.
pub fn real_games_to_dir(
    games: &[(montello_engine::notation::wthor::WthorGame, u8)],
    dir: &Path,
    games_per_chunk: usize,
    exact: u32,
    threads: usize,
) -> io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let chunks: Vec<_> = games.chunks(games_per_chunk.max(1)).collect();
    parallel_map(chunks.len(), threads, |k| {
        let path = chunk_path(dir, k as u64);
        if path.exists() {
            return Ok(0);
        }
        let samples: Vec<Sample> = chunks[k]
            .iter()
            .flat_map(|(game, depth)| {
                super::game_samples(game, *depth, exact, &mut super::solve_exactly)
            })
            .collect();
        write_samples(&path, &samples)?;
        Ok(samples.len())
    })
    .into_iter()
    .sum()
}

/// Every chunk in `dirs`, split into (fit, held out) samples.
pub fn load_dirs(dirs: &[std::path::PathBuf]) -> io::Result<(Vec<Sample>, Vec<Sample>)> {
    let mut fit = Vec::new();
    let mut held = Vec::new();
    for dir in dirs {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "bin"))
            .collect();
        entries.sort();
        for path in entries {
            let chunk = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.strip_prefix("chunk-"))
                .and_then(|s| s.parse::<u64>().ok());
            let Some(chunk) = chunk else { continue };
            let samples = read_samples(&path)?;
            if is_holdout(chunk) {
                held.extend(samples);
            } else {
                fit.extend(samples);
            }
        }
    }
    Ok((fit, held))
}
