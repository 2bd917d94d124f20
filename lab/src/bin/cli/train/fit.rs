//! `montello-engine train`: Fitting the tables and the bias per count of empty squares, rescaling and reporting
//! weights.

use super::*;

/// `fit`'s arguments.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Data directories.
    #[arg(long, num_args = 1.., required_unless_present = "sets")]
    data: Vec<PathBuf>,
    /// Exact sets (the format of `train testset`, e.g. positions from played games made by
    /// tools/testset-from-games.py): every position is fitted, none held out.
    #[arg(long, num_args = 1..)]
    sets: Vec<PathBuf>,
    /// Starting weights: a file, `zeros`, `builtin` or `heuristic`.
    #[arg(long, default_value = "zeros")]
    init: String,
    /// Output weights file.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = Fit::default().epochs)]
    epochs: u32,
    /// First epoch's step size.
    #[arg(long, default_value_t = Fit::default().rate)]
    rate: f32,
    /// Step size decay per epoch.
    #[arg(long, default_value_t = Fit::default().decay)]
    decay: f32,
    /// Seed of the sample order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the result does not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// An exact test set (from `train testset`) to report the error on as well.
    #[arg(long)]
    test: Option<PathBuf>,
    /// How much of a non-exact position's target is its search value rather than the
    /// game's outcome (0..=1).
    #[arg(long, default_value_t = 0.0)]
    search_weight: f32,
    /// A phase also learns from positions up to this many empty squares outside its range.
    #[arg(long, default_value_t = Fit::default().overlap)]
    overlap: u32,
    /// NEAR:FAR: the search value's share grows from none at NEAR empties or fewer (the
    /// outcome alone) to SEARCH_WEIGHT at FAR empties or more.
    #[arg(long, value_parser = parse_ramp)]
    search_ramp: Option<(u32, u32)>,
    /// ITERATIONS:RIDGE: least squares by conjugate gradients instead of stochastic
    /// gradient descent (the epochs, rate, decay and seed are then unused).
    #[arg(long, value_parser = parse_cg)]
    cg: Option<(u32, f32)>,
    /// Write tables interpolated between the phases' middles, all phases fitted together
    /// (needs --cg; --overlap is then unused).
    #[arg(long, requires = "cg")]
    interpolate: bool,
    /// The ridge pulls every weight towards INIT's rather than towards 0, and INIT's bias per
    /// count of empty squares is kept: refines INIT's tables with a few better-labelled
    /// positions (needs --cg; not with --interpolate).
    #[arg(long, requires = "cg", conflicts_with = "interpolate")]
    toward_init: bool,
    /// Fit to the positions with an exact value only (the data's held-out error is still
    /// reported on all of its positions).
    #[arg(long)]
    exact_only: bool,
    /// Fit to the positions with at most this many empty squares only (with --toward-init,
    /// the phases that no such position reaches, within --overlap, keep INIT's tables).
    #[arg(long)]
    max_empties: Option<u32>,
}

/// `bias`'s arguments.
#[derive(Args, Debug)]
pub struct BiasArgs {
    /// Weights: a file or `builtin`.
    #[arg(long)]
    weights: String,
    /// Data directories.
    #[arg(long, num_args = 1.., required_unless_present = "sets")]
    data: Vec<PathBuf>,
    /// Exact sets (the format of `train testset`, e.g. positions from played games made by
    /// tools/testset-from-games.py): every position is fitted, none held out.
    #[arg(long, num_args = 1..)]
    sets: Vec<PathBuf>,
    /// Output weights file.
    #[arg(long)]
    out: PathBuf,
    /// How much of a non-exact position's target is its search value rather than the
    /// game's outcome (0..=1).
    #[arg(long, default_value_t = 0.0)]
    search_weight: f32,
    /// An exact test set (from `train testset`) to report the error on as well.
    #[arg(long)]
    test: Option<PathBuf>,
    /// Fit to the positions with an exact value only (the bias then changes only at the
    /// counts of empty squares that the data solved exactly).
    #[arg(long)]
    exact_only: bool,
}

/// `rescale`'s arguments.
#[derive(Args, Debug)]
pub struct RescaleArgs {
    /// The weights file to read.
    #[arg(long)]
    weights: PathBuf,
    /// The new unit, 1/SCALE disc: 32, 16, 8, 4, 2 or 1.
    #[arg(long)]
    scale: u32,
    /// Where to write it.
    #[arg(long)]
    out: PathBuf,
}

/// `report`'s arguments.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Weights: a file, `builtin` or `heuristic`.
    #[arg(long, default_value = "builtin")]
    weights: String,
    /// Data directories (their held-out chunks are reported).
    #[arg(long, num_args = 0..)]
    data: Vec<PathBuf>,
    /// A test set from `train testset`.
    #[arg(long)]
    test: Option<PathBuf>,
}

/// `train fit`: fits the tables to the data and writes the weights.
pub(super) fn fit(
    FitArgs {
        data,
        init,
        out,
        epochs,
        rate,
        decay,
        seed,
        threads,
        test,
        search_weight,
        overlap,
        search_ramp,
        cg,
        interpolate,
        toward_init,
        sets,
        exact_only,
        max_empties,
    }: FitArgs,
) -> Result<(), String> {
    let start = Instant::now();
    let (mut fit_set, held) = fit_data(&data, &sets, exact_only)?;
    if let Some(most) = max_empties {
        fit_set.retain(|s| s.empties() <= most);
    }
    let method = match cg {
        Some((iterations, ridge)) => {
            format!("conjugate gradients, {iterations} iterations, ridge {ridge}")
        }
        None => format!("epochs {epochs}, rate {rate}, decay {decay}, seed {seed}"),
    };
    let method = if interpolate {
        format!("{method}, interpolated between the phases")
    } else if toward_init {
        format!("{method}, towards the init")
    } else {
        method
    };
    let most = max_empties.map_or(String::new(), |n| format!(" at {n} empties or fewer"));
    println!(
        "fit: {} positions to fit{most}, {} held out, init {init}, {method}, overlap {overlap}, search weight {search_weight}, ramp {search_ramp:?}",
        fit_set.len(),
        held.len()
    );
    let w0 = weights_named(&init)?;
    let fit = Fit {
        epochs,
        rate,
        decay,
        seed,
        search_weight,
        overlap,
        search_ramp,
        cg,
        interpolate,
        toward_init,
    };
    let w = train::fit_all(&fit_set, &w0, &fit, threads);
    println!("fitted in {:.0} s", start.elapsed().as_secs_f64());
    let target = |s: &train::Sample| fit.target(s);
    print_errors(
        "fit set, against the targets",
        &train::errors(&w, &fit_set, &target),
    );
    print_errors(
        "held out, against the targets",
        &train::errors(&w, &held, &target),
    );
    print_errors(
        "held out, against the outcomes",
        &train::errors(&w, &held, &label),
    );
    if let Some(test) = test {
        print_test_set(&w, &test)?;
    }
    write_weights(&w, &out)
}

/// `train bias`: fits the bias per count of empty squares and writes the weights.
pub(super) fn bias(
    BiasArgs {
        weights,
        data,
        sets,
        out,
        search_weight,
        test,
        exact_only,
    }: BiasArgs,
) -> Result<(), String> {
    let start = Instant::now();
    let (fit_set, held) = fit_data(&data, &sets, exact_only)?;
    println!(
        "bias: {} positions to fit{}, {} held out, weights {weights}, search weight {search_weight}",
        fit_set.len(),
        if exact_only {
            " (exact values only)"
        } else {
            ""
        },
        held.len()
    );
    let w0 = weights_named(&weights)?;
    let fit = Fit {
        search_weight,
        ..Fit::default()
    };
    let target = |s: &train::Sample| fit.target(s);
    let bias = train::fit_empties_bias(&w0, &fit_set, &target);
    let w = w0.clone().with_empties_bias(bias);
    println!("fitted in {:.0} s", start.elapsed().as_secs_f64());
    let exact_held: Vec<train::Sample> = held.iter().filter(|s| s.exact).copied().collect();
    for (name, w) in [("before", &w0), ("after", &w)] {
        if !held.is_empty() {
            print_errors(
                &format!("held out, against the targets, {name}"),
                &train::errors(w, &held, &target),
            );
            print_errors(
                &format!("held out, exact values only, {name}"),
                &train::errors(w, &exact_held, &label),
            );
        }
        if let Some(test) = &test {
            print_test_set(w, test)?;
        }
    }
    println!("bias per empty squares (discs; the change in brackets):");
    for (e, (&b, &b0)) in bias.iter().zip(w0.empties_bias()).enumerate() {
        if b != 0 || b0 != 0 {
            let disc = |x: i16| f64::from(x) / f64::from(eval::SCALE);
            println!("  {e:>2}: {:+6.2} ({:+.2})", disc(b), disc(b) - disc(b0));
        }
    }
    write_weights(&w, &out)
}

/// `train rescale`: writes the weights at a coarser scale.
pub(super) fn rescale(
    RescaleArgs {
        weights,
        scale,
        out,
    }: RescaleArgs,
) -> Result<(), String> {
    let w = load_weights(&weights)?;
    let bytes = w.encode_at_scale(scale).map_err(|e| e.to_string())?;
    write_weights_file(&bytes, &out)
}

/// `train report`: prints the error of the weights per phase.
pub(super) fn report(
    ReportArgs {
        weights,
        data,
        test,
    }: ReportArgs,
) -> Result<(), String> {
    let w = weights_named(&weights)?;
    if !data.is_empty() {
        let (_, held) = train::load_dirs(&data).map_err(|e| format!("reading the data: {e}"))?;
        print_errors(
            "held out, against the outcomes",
            &train::errors(&w, &held, &label),
        );
    }
    if let Some(test) = test {
        print_test_set(&w, &test)?;
    }
    Ok(())
}
