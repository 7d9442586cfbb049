//! Figures, each written as PNG and SVG with plotters: the optimal network on
//! the map (the paper's Figure 2), the score curve (Figure 3), the most
//! frequent tickets and routes (Figure 4), the sensitivity bars, the
//! score distributions of simulated players, a game's review, and a
//! tournament's ratings.
//!
//! Text is drawn with DejaVu Sans compiled into the binary (the `dejavu`
//! crate), never with the system's fonts: a PNG comes out the same on every
//! machine, and an SVG carries its text as the font's glyph outlines, so a
//! viewer has nothing to substitute.

use std::collections::HashMap;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::analysis::optima::{Presence, SweepOptima};
use crate::analysis::{Frequency, Impact};
use crate::board::{Board, CityId, Colour, RouteId};
use crate::leagues::playtest::Playtest;
use crate::leagues::tournament::Tournament;
use crate::model::Plan;
use crate::plans::deals::DealReport;
use crate::plans::review::Review;

/// A figure that could not be drawn or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {file}: {message}")]
pub struct PlotError {
    /// The figure's file.
    pub file: String,
    /// What went wrong.
    pub message: String,
}

/// The family name plotters asks for; registered with the embedded font.
const FONT: &str = "sans-serif";

type Drawn = Result<(), Box<dyn Error>>;

/// Registers the embedded font with plotters, once per process.
fn register_font() -> Result<(), PlotError> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| "the embedded DejaVu Sans font is invalid".to_string())
    })
    .clone()
    .map_err(|message| PlotError {
        file: "font".into(),
        message,
    })
}

/// Plotters' SVG with every `<text>` element replaced by a `<path>` of the
/// glyph outlines of the embedded font, laid out as plotters lays out text in
/// a PNG: the SVG then looks the same in every viewer, with or without fonts
/// (viewers differ in their support of fonts embedded in SVG).
fn outline_text(svg: &str) -> Result<String, String> {
    let font = ab_glyph::FontRef::try_from_slice(dejavu::sans::regular())
        .map_err(|_| "the embedded DejaVu Sans font is invalid".to_string())?;
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("<text ") {
        out.push_str(&rest[..start]);
        let broken = || "a <text> element plotters wrote is not closed".to_string();
        let open_end = start + rest[start..].find('>').ok_or_else(broken)?;
        let close = open_end + rest[open_end..].find("</text>").ok_or_else(broken)?;
        let attrs = format!(" {}", &rest[start + 6..open_end]);
        // Plotters puts the text on its own indented line.
        let text = unescape(rest[open_end + 1..close].trim());
        out.push_str(&text_path(&font, &attrs, &text)?);
        rest = &rest[close + "</text>".len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One `<text>` element (its attributes and text) as a `<path>`.
fn text_path(font: &ab_glyph::FontRef, attrs: &str, text: &str) -> Result<String, String> {
    use ab_glyph::{Font as _, OutlineCurve, ScaleFont as _};
    let attr = |name: &str| -> Option<&str> {
        let key = format!(" {name}=\"");
        let at = attrs.find(&key)? + key.len();
        attrs[at..].find('"').map(|end| &attrs[at..at + end])
    };
    let number = |name: &str| -> Result<f32, String> {
        attr(name)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("a <text> element has no numeric {name}"))
    };
    let (x, y) = (number("x")?, number("y")?);
    // Plotters writes the requested size divided by 1.24 as font-size.
    let scaled = font.as_scaled(number("font-size")? * 1.24);
    let mut glyphs = Vec::new();
    let mut pen = 0.0;
    let mut previous = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(p) = previous {
            pen += scaled.kern(p, id);
        }
        glyphs.push((id, pen));
        pen += scaled.h_advance(id);
        previous = Some(id);
    }
    let left = match attr("text-anchor") {
        Some("middle") => x - pen / 2.0,
        Some("end") => x - pen,
        _ => x,
    };
    // Plotters' anchors: top, centre or bottom of the line's box.
    let baseline = match attr("dy") {
        Some("0.76em") => y + scaled.ascent(),
        Some("0.5ex") => y + (scaled.ascent() + scaled.descent()) / 2.0,
        Some("-0.5ex") => y + scaled.descent(),
        _ => y,
    };
    let factor = scaled.scale_factor();
    let mut d = String::new();
    for (id, offset) in glyphs {
        let Some(outline) = font.outline(id) else {
            continue;
        };
        let point = |p: ab_glyph::Point| {
            format!(
                "{:.2} {:.2}",
                left + offset + p.x * factor.horizontal,
                baseline - p.y * factor.vertical
            )
        };
        let mut at = None;
        for curve in &outline.curves {
            let (from, to) = match *curve {
                OutlineCurve::Line(a, b) | OutlineCurve::Quad(a, _, b) => (a, b),
                OutlineCurve::Cubic(a, _, _, b) => (a, b),
            };
            if at != Some(from) {
                if at.is_some() {
                    d.push('Z');
                }
                d.push_str(&format!("M{}", point(from)));
            }
            match *curve {
                OutlineCurve::Line(_, b) => d.push_str(&format!("L{}", point(b))),
                OutlineCurve::Quad(_, c, b) => d.push_str(&format!("Q{} {}", point(c), point(b))),
                OutlineCurve::Cubic(_, c1, c2, b) => {
                    d.push_str(&format!("C{} {} {}", point(c1), point(c2), point(b)))
                }
            }
            at = Some(to);
        }
        if at.is_some() {
            d.push('Z');
        }
    }
    let mut path = format!("<path d=\"{d}\"");
    for name in ["fill", "opacity", "transform"] {
        if let Some(v) = attr(name) {
            path.push_str(&format!(" {name}=\"{v}\""));
        }
    }
    path.push_str("/>");
    Ok(path)
}

/// The text of an XML element, with plotters' escapes undone.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Draws a figure with `$draw` (an expression using `$root`, a drawing
/// area) twice, into `$stem.png` and `$stem.svg`; returns the two paths.
macro_rules! render {
    ($stem:expr, $size:expr, |$root:ident| $draw:expr) => {{
        register_font()?;
        let stem: &Path = $stem;
        let (png, svg_path) = (stem.with_extension("png"), stem.with_extension("svg"));
        let fail = |path: &Path, e: &dyn std::fmt::Display| PlotError {
            file: path.display().to_string(),
            message: e.to_string(),
        };
        {
            // Drawn under a temporary name and renamed into place. Creating
            // the file first turns an unwritable folder into a plain I/O
            // message (the backend's own error is a debug dump).
            let tmp = crate::output::temporary(&png);
            std::fs::File::create(&tmp).map_err(|e| fail(&png, &e))?;
            let drawn = (|| -> Result<(), PlotError> {
                let $root = BitMapBackend::new(&tmp, $size).into_drawing_area();
                $draw.map_err(|e| fail(&png, &e))?;
                $root.present().map_err(|e| fail(&png, &e))?;
                Ok(())
            })();
            match drawn {
                Ok(()) => crate::output::commit(&tmp, &png).map_err(|e| fail(&png, &e))?,
                Err(e) => {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(e);
                }
            }
        }
        let mut svg = String::new();
        {
            let $root = SVGBackend::with_string(&mut svg, $size).into_drawing_area();
            $draw.map_err(|e| fail(&svg_path, &e))?;
            $root.present().map_err(|e| fail(&svg_path, &e))?;
        }
        let svg = outline_text(&svg).map_err(|e| fail(&svg_path, &e))?;
        crate::output::write_atomic(&svg_path, svg.as_bytes()).map_err(|e| fail(&svg_path, &e))?;
        Ok(vec![png, svg_path])
    }};
}

/// Figure 2: the board with the plan's routes in their colours over the
/// other routes in grey, cities labelled, the completed tickets listed.
pub fn map(board: &Board, plan: &Plan, cars: u32, stem: &Path) -> Result<Vec<PathBuf>, PlotError> {
    render!(stem, (1600, 760), |root| draw_map(&root, board, plan, cars))
}

/// A game's review: per player, the best final score still reachable at
/// the start of each turn, with the final score as a dashed line; where a
/// curve falls, points were lost.
pub fn review(title: &str, review: &Review, stem: &Path) -> Result<Vec<PathBuf>, PlotError> {
    render!(stem, (1200, 800), |root| draw_review(&root, title, review))
}

/// Figure 3: the optimal score against the train-car budget, split into
/// ticket and route points. `points` holds (cars, ticket points, route points).
pub fn score_curve(
    title: &str,
    points: &[(u32, u32, u32)],
    stem: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let line = |label: &str, colour, part: fn(&(u32, u32, u32)) -> u32| -> Line {
        (
            label.to_string(),
            colour,
            points.iter().map(|p| (p.0, part(p))).collect(),
        )
    };
    let lines = [
        line("total score", RGBColor(20, 20, 20), |p| p.1 + p.2),
        line("ticket points", RGBColor(40, 90, 210), |p| p.1),
        line("route points", RGBColor(240, 140, 20), |p| p.2),
    ];
    render!(stem, (1200, 800), |root| draw_lines(&root, title, &lines))
}

/// Two score curves over the same budgets, for `compare`: `curves` holds
/// (label, (cars, optimal score) points).
pub fn compare_curves(
    title: &str,
    curves: [(&str, &[(u32, u32)]); 2],
    stem: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let colours = [RGBColor(20, 20, 20), RGBColor(215, 40, 40)];
    let lines: Vec<Line> = curves
        .iter()
        .zip(colours)
        .map(|((label, points), colour)| (label.to_string(), colour, points.to_vec()))
        .collect();
    render!(stem, (1200, 800), |root| draw_lines(&root, title, &lines))
}

/// Figure 4: the `top` tickets and routes most often in the optima.
pub fn frequency(
    title: &str,
    freq: &Frequency,
    top: usize,
    stem: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let rows = |chosen: &[crate::analysis::Chosen]| -> Vec<Bar> {
        chosen
            .iter()
            .take(top)
            .map(|c| Bar::new(format!("{} ({})", c.name, c.points), c.count as i64))
            .collect()
    };
    let panels = [
        ("Tickets completed", rows(&freq.tickets)),
        ("Routes claimed", rows(&freq.routes)),
    ];
    let x_desc = format!("optimal plans that use it (of {})", freq.plans);
    render!(stem, (1600, 700), |root| draw_panels(
        &root, title, &panels, &x_desc
    ))
}

/// The `top` tickets and routes of [`SweepOptima`]: per budget of the
/// range, in every optimum (solid) and in some optimum (light).
pub fn presence(
    title: &str,
    optima: &SweepOptima,
    top: usize,
    stem: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let rows = |rows: &[Presence]| -> Vec<Bar> {
        rows.iter()
            .take(top)
            .map(|p| Bar {
                label: format!("{} ({})", p.name, p.points),
                value: p.every as i64,
                behind: Some(p.some as i64),
            })
            .collect()
    };
    let panels = [
        ("Tickets completed", rows(&optima.tickets)),
        ("Routes claimed", rows(&optima.routes)),
    ];
    let x_desc = format!(
        "budgets where every / some optimal plan uses it (of {})",
        optima.budgets.len()
    );
    render!(stem, (1600, 700), |root| draw_panels(
        &root, title, &panels, &x_desc
    ))
}

/// The loss of optimum without each ticket and each route of the plan.
pub fn sensitivity(
    title: &str,
    tickets: &[Impact],
    routes: &[Impact],
    stem: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let rows = |impacts: &[Impact]| -> Vec<Bar> {
        impacts
            .iter()
            .map(|i| Bar::new(format!("{} ({})", i.name, i.points), i.change))
            .collect()
    };
    let panels = [
        ("Ticket removed from the game", rows(tickets)),
        ("Route taken by an opponent", rows(routes)),
    ];
    render!(stem, (1600, 800), |root| draw_panels(
        &root,
        title,
        &panels,
        "change of the optimum (points)"
    ))
}

/// Score distributions, one line per strategy (share of games per 10-point
/// bin), with the optimum marked.
pub fn distribution(
    title: &str,
    series: &[(String, Vec<i64>)],
    optimum: i64,
    stem: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let mark = Mark {
        at: optimum,
        label: format!("single-player optimum ({optimum})"),
        of: "games",
        x_desc: "final score (points)",
        bin: 10,
    };
    render!(stem, (1200, 700), |root| draw_distribution(
        &root, title, series, &mark
    ))
}

/// A tournament's ratings: a panel per board, each strategy's Weng-Lin
/// mean with its interval of two standard deviations, a colour per seat
/// count.
pub fn ratings(title: &str, t: &Tournament, stem: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let width = (200 + 420 * t.boards.len()).clamp(800, 3000) as u32;
    render!(stem, (width, 700), |root| draw_ratings(&root, title, t))
}

fn draw_ratings<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    t: &Tournament,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.margin(12, 0, 0, 0).titled(title, (FONT, 26))?;
    let rated = t.standings.iter().filter(|s| s.games > 0);
    let lo = rated
        .clone()
        .map(|s| s.mu - 2.0 * s.sigma)
        .fold(f64::MAX, f64::min);
    let hi = rated.map(|s| s.mu + 2.0 * s.sigma).fold(f64::MIN, f64::max);
    let (lo, hi) = if lo < hi { (lo, hi) } else { (0.0, 50.0) };
    let pad = (hi - lo) * 0.08;
    for (b, area) in t
        .boards
        .iter()
        .zip(root.split_evenly((1, t.boards.len())).iter())
    {
        let series: Vec<Intervals> = t
            .seats
            .iter()
            .map(|&seats| Intervals {
                label: format!("{seats} players"),
                points: t
                    .players
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| {
                        t.standings
                            .iter()
                            .find(|s| {
                                &s.board == b && s.seats == seats && &s.strategy == p && s.games > 0
                            })
                            .map(|s| (i, s.mu, s.mu - 2.0 * s.sigma, s.mu + 2.0 * s.sigma))
                    })
                    .collect(),
            })
            .collect();
        let chart = IntervalChart {
            caption: Some(b),
            names: &t.players,
            y: lo - pad..hi + pad,
            y_desc: "rating (mu ± 2 sigma)",
            legend: SeriesLabelPosition::LowerRight,
        };
        chart.draw(area, &series)?;
    }
    Ok(())
}

/// A playtest's win rates: each strategy's rate (outright top scores over
/// the games it sat in) with its 95 % Wilson interval, a colour per seat
/// count, as `<stem>.png` and `<stem>.svg`.
pub fn playtest_wins(title: &str, p: &Playtest, stem: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let width = (250 + 130 * p.players.len()).clamp(800, 2400) as u32;
    render!(stem, (width, 650), |root| draw_playtest_wins(
        &root, title, p
    ))
}

fn draw_playtest_wins<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    p: &Playtest,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.margin(12, 0, 0, 0).titled(title, (FONT, 26))?;
    let series: Vec<Intervals> = p
        .counts
        .iter()
        .map(|c| Intervals {
            label: format!("{} players", c.seats),
            points: p
                .players
                .iter()
                .enumerate()
                .filter_map(|(i, name)| {
                    c.styles
                        .iter()
                        .find(|s| &s.standing.strategy == name && s.standing.games > 0)
                        .map(|s| {
                            let t = &s.standing;
                            (i, 100.0 * t.win_rate, 100.0 * t.win_low, 100.0 * t.win_high)
                        })
                })
                .collect(),
        })
        .collect();
    let chart = IntervalChart {
        caption: None,
        names: &p.players,
        y: 0.0..100.0,
        y_desc: "win rate, % (95 % Wilson interval)",
        legend: SeriesLabelPosition::UpperRight,
    };
    chart.draw(&root, &series)
}

/// One series of an [`IntervalChart`] (a seat count): its legend, and per
/// strategy (its index in the chart's names) a value with its interval.
struct Intervals {
    label: String,
    points: Vec<(usize, f64, f64, f64)>,
}

/// Strategies along x, and for each a value with its interval per series,
/// the series side by side around the strategy's place, a colour each: the
/// tournament's ratings and the playtest's win rates.
struct IntervalChart<'a> {
    caption: Option<&'a str>,
    names: &'a [String],
    y: std::ops::Range<f64>,
    y_desc: &'a str,
    legend: SeriesLabelPosition,
}

impl IntervalChart<'_> {
    fn draw<DB: DrawingBackend>(self, area: &DrawingArea<DB, Shift>, series: &[Intervals]) -> Drawn
    where
        DB::ErrorType: 'static,
    {
        const PALETTE: [RGBColor; 4] = [
            RGBColor(40, 90, 210),
            RGBColor(240, 140, 20),
            RGBColor(40, 160, 60),
            RGBColor(215, 40, 40),
        ];
        let n = self.names.len();
        let k = series.len();
        let mut builder = ChartBuilder::on(area);
        if let Some(caption) = self.caption {
            builder.caption(caption, (FONT, 22));
        }
        let mut chart = builder
            .margin(15)
            .x_label_area_size(60)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5..n as f64 - 0.5, self.y.clone())?;
        let label = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                self.names[i as usize].clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n + 1)
            .x_label_formatter(&label)
            .y_desc(self.y_desc)
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 16))
            .draw()?;
        for (j, s) in series.iter().enumerate() {
            let colour = PALETTE[j % PALETTE.len()];
            let dx = (j as f64 - (k as f64 - 1.0) / 2.0) * 0.6 / k as f64;
            let x = |i: usize| i as f64 + dx;
            chart
                .draw_series(s.points.iter().map(|&(i, _, a, z)| {
                    // The interval, with caps at its ends.
                    let (x, cap) = (x(i), 0.04);
                    PathElement::new(
                        vec![
                            (x - cap, a),
                            (x + cap, a),
                            (x, a),
                            (x, z),
                            (x - cap, z),
                            (x + cap, z),
                        ],
                        colour.stroke_width(2),
                    )
                }))?
                .label(s.label.clone())
                .legend(move |(x, y)| Circle::new((x + 10, y), 5, colour.filled()));
            chart.draw_series(
                s.points
                    .iter()
                    .map(|&(i, v, _, _)| Circle::new((x(i), v), 5, colour.filled())),
            )?;
        }
        chart
            .configure_series_labels()
            .position(self.legend)
            .label_font((FONT, 15))
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()?;
        Ok(())
    }
}

/// The luck of the deal, two figures: `<stem>-histogram`, the hands' best
/// scores (share of hands per 10-point bin) with the best hand marked; and
/// `<stem>-tickets`, the cards ranked by their value (the mean best score of
/// the hands holding them) beside how often keeping them is right.
pub fn deals(report: &DealReport, stem: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let name = stem
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let sample = if report.sampled {
        format!(
            "a sample of {} hands (seed {})",
            report.hands_valued, report.seed
        )
    } else {
        format!("all {} hands", report.hands_valued)
    };
    let title = format!(
        "{}: the best score of {sample} of {} tickets (keep {}+), {} cars",
        report.board, report.hand, report.keep, report.cars
    );
    let values: Vec<i64> = report.hands.iter().map(|h| h.best).collect();
    let mark = Mark {
        at: report.max,
        label: format!("best hand ({})", report.max),
        of: "hands",
        x_desc: "best score the hand allows (points)",
        bin: 2,
    };
    let series = [(
        format!(
            "hands, {:.1} % within 10 % of the best",
            report.within_10_percent * 100.0
        ),
        values,
    )];
    let mut written = render!(
        &stem.with_file_name(format!("{name}-histogram")),
        (1200, 700),
        |root| { draw_distribution(&root, &title, &series, &mark) }
    )?;
    // Against the mean of all hands: the differences are the point.
    let mean = series[0].1.iter().sum::<i64>() as f64 / series[0].1.len().max(1) as f64;
    let value: Vec<Bar> = report
        .tickets
        .iter()
        .map(|t| {
            Bar::new(
                format!("{} ({})", t.ticket, t.points),
                (t.mean_best - mean).round() as i64,
            )
        })
        .collect();
    let kept: Vec<Bar> = report
        .tickets
        .iter()
        .map(|t| {
            Bar::new(
                format!("{} ({})", t.ticket, t.points),
                (t.kept_share * 100.0).round() as i64,
            )
        })
        .collect();
    let first = format!("Mean best score of the hands holding it, against all hands' {mean:.1}");
    let panels = [
        (first.as_str(), value),
        ("Share of those hands whose best choice keeps it (%)", kept),
    ];
    let height = (200 + 24 * report.tickets.len()).clamp(600, 4000) as u32;
    let title = format!(
        "{}: each ticket's value as a card ({sample}, {} cars)",
        report.board, report.cars
    );
    written.extend(render!(
        &stem.with_file_name(format!("{name}-tickets")),
        (1600, height),
        |root| { draw_panels(&root, &title, &panels, "") }
    )?);
    Ok(written)
}

/// What a distribution marks with a vertical line, and what it counts.
struct Mark {
    at: i64,
    label: String,
    /// "games", "hands".
    of: &'static str,
    x_desc: &'static str,
    /// Points a bin.
    bin: i64,
}

fn draw_distribution<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    series: &[(String, Vec<i64>)],
    mark: &Mark,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let size = mark.bin;
    let bin = |v: i64| v.div_euclid(size);
    let all = series.iter().flat_map(|(_, v)| v.iter().copied());
    let lo = all.clone().map(bin).min().unwrap_or(0) - 1;
    let optimum = mark.at;
    let hi = all.map(bin).max().unwrap_or(0).max(bin(optimum)) + 1;
    let shares: Vec<Vec<(i64, f64)>> = series
        .iter()
        .map(|(_, values)| {
            (lo..=hi)
                .map(|b| {
                    let count = values.iter().filter(|&&v| bin(v) == b).count();
                    (
                        b * size + size / 2,
                        count as f64 / values.len().max(1) as f64,
                    )
                })
                .collect()
        })
        .collect();
    let top = shares
        .iter()
        .flatten()
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(0.01);
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(lo * size..(hi + 1) * size, 0.0..top * 1.15)?;
    chart
        .configure_mesh()
        .x_desc(mark.x_desc)
        .y_desc(format!("share of {} per {size} points", mark.of))
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 18))
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .draw()?;
    let palette = [
        RGBColor(240, 140, 20),
        RGBColor(40, 90, 210),
        RGBColor(40, 160, 60),
        RGBColor(215, 40, 40),
        RGBColor(120, 60, 160),
    ];
    for (i, ((name, values), points)) in series.iter().zip(&shares).enumerate() {
        let colour = palette[i % palette.len()];
        let mut sorted = values.clone();
        sorted.sort();
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(3),
            ))?
            .label(format!("{name} (median {median})"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
            });
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(optimum, 0.0), (optimum, top * 1.1)],
            BLACK.stroke_width(2),
        )))?
        .label(mark.label.clone())
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 17))
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

fn rgb(colour: Colour) -> RGBColor {
    match colour {
        Colour::Gray => RGBColor(110, 110, 110),
        Colour::Red => RGBColor(215, 40, 40),
        Colour::Orange => RGBColor(240, 140, 20),
        Colour::Yellow => RGBColor(235, 205, 20),
        Colour::Green => RGBColor(40, 160, 60),
        Colour::Blue => RGBColor(40, 90, 210),
        Colour::Pink => RGBColor(225, 110, 180),
        Colour::White => RGBColor(245, 245, 245),
        Colour::Black => RGBColor(25, 25, 25),
    }
}

fn draw_map<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    board: &Board,
    plan: &Plan,
    cars: u32,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (width, _) = root.dim_in_pixel();
    let (map, side) = root.split_horizontally(width as i32 * 3 / 4);
    let text = |size: i32| TextStyle::from((FONT, size).into_font()).color(&BLACK);
    let title = if board.title.is_empty() {
        &board.name
    } else {
        &board.title
    };
    map.draw(&Text::new(
        format!(
            "{title}: {} points with {cars} train cars ({} from tickets, {} from routes)",
            plan.score(),
            plan.ticket_points,
            plan.route_points
        ),
        (20, 20),
        text(24),
    ))?;

    // Board coordinates (x east, y south) scaled into the map area.
    let (mw, mh) = map.dim_in_pixel();
    let (x0, x1) = bounds(board.cities.iter().map(|c| c.x));
    let (y0, y1) = bounds(board.cities.iter().map(|c| c.y));
    let (left, top, right, bottom) = (30.0, 70.0, 130.0, 30.0);
    let scale =
        ((mw as f64 - left - right) / (x1 - x0)).min((mh as f64 - top - bottom) / (y1 - y0));
    let at = |c: CityId| {
        let city = board.city(c);
        (
            (left + (city.x - x0) * scale) as i32,
            (top + (city.y - y0) * scale) as i32,
        )
    };

    // Every track in light grey, parallel tracks side by side; then the
    // plan's routes on top, outlined, in their (first) track's colour. Where
    // a pair's tracks differ in length, each is drawn as its train cars, so
    // a 2-car track and a 3-car one beside it look different, and a claimed
    // one is drawn on its own track.
    let grey = RGBColor(200, 200, 200);
    let mut lane: HashMap<RouteId, f64> = HashMap::new();
    for pair in &board.pairs {
        let tracks: Vec<RouteId> = pair
            .iter()
            .flat_map(|&r| std::iter::repeat_n(r, board.route(r).tracks.len()))
            .collect();
        let n = tracks.len() as f64;
        let unequal = pair.len() > 1;
        // Unequal tracks farther apart, so that a claimed one leaves the
        // other in view.
        let spacing = if unequal { 9.0 } else { 5.0 };
        for (k, &id) in tracks.iter().enumerate() {
            let route = board.route(id);
            let offset = (k as f64 - (n - 1.0) / 2.0) * spacing;
            lane.entry(id).or_insert(offset);
            let line = shifted(at(route.a), at(route.b), offset);
            if unequal {
                for car in train_cars(&line, route.length) {
                    map.draw(&PathElement::new(
                        car,
                        RGBColor(160, 160, 160).stroke_width(3),
                    ))?;
                }
            } else {
                map.draw(&PathElement::new(line, grey.stroke_width(2)))?;
            }
        }
    }
    for &id in &plan.routes {
        let route = board.route(id);
        let (a, b) = (at(route.a), at(route.b));
        if board.pair_routes(id).len() > 1 {
            let line = shifted(a, b, lane[&id]);
            for car in train_cars(&line, route.length) {
                map.draw(&PathElement::new(car.clone(), BLACK.stroke_width(6)))?;
                map.draw(&PathElement::new(car, rgb(route.tracks[0]).stroke_width(4)))?;
            }
            continue;
        }
        map.draw(&PathElement::new(vec![a, b], BLACK.stroke_width(9)))?;
        map.draw(&PathElement::new(
            vec![a, b],
            rgb(route.tracks[0]).stroke_width(6),
        ))?;
    }
    // Labels on a pale box, so that they stay readable over a dark route.
    let label = text(15).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, city) in board.cities.iter().enumerate() {
        let p = at(CityId(i));
        map.draw(&Circle::new(p, 6, RGBColor(60, 60, 60).filled()))?;
        let (w, h) = map.estimate_text_size(&city.name, &label)?;
        let (w, h) = (w as i32, h as i32);
        map.draw(&Rectangle::new(
            [(p.0 + 8, p.1 - h / 2 - 1), (p.0 + 10 + w, p.1 + h / 2 + 1)],
            WHITE.mix(0.8).filled(),
        ))?;
        map.draw(&Text::new(city.name.clone(), (p.0 + 9, p.1), label.clone()))?;
    }

    // The side panel: what the plan completes.
    let mut y = 70;
    side.draw(&Text::new("Completed tickets", (10, y), text(20)))?;
    y += 34;
    for &t in &plan.tickets {
        side.draw(&Text::new(
            format!("{} ({})", board.ticket_label(t), board.ticket(t).points),
            (10, y),
            text(15),
        ))?;
        y += 22;
    }
    y += 14;
    for line in [
        format!("{} ticket points", plan.ticket_points),
        format!(
            "{} route points from {} routes",
            plan.route_points,
            plan.routes.len()
        ),
        format!("{} of {cars} train cars used", plan.cars_used),
    ] {
        side.draw(&Text::new(line, (10, y), text(16)))?;
        y += 24;
    }
    Ok(())
}

/// Least and greatest of some coordinates.
fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi > lo {
        (lo, hi)
    } else {
        (lo - 1.0, lo + 1.0)
    }
}

/// The segment a–b moved sideways by `offset` pixels.
/// The segment `line` cut into `length` train cars with gaps between them.
fn train_cars(line: &[(i32, i32)], length: u32) -> Vec<Vec<(i32, i32)>> {
    let (a, b) = (line[0], line[1]);
    let point = |t: f64| {
        (
            a.0 + ((b.0 - a.0) as f64 * t) as i32,
            a.1 + ((b.1 - a.1) as f64 * t) as i32,
        )
    };
    let n = length.max(1) as f64;
    (0..length.max(1))
        .map(|c| {
            let c = c as f64;
            vec![point((c + 0.12) / n), point((c + 0.88) / n)]
        })
        .collect()
}

fn shifted(a: (i32, i32), b: (i32, i32), offset: f64) -> Vec<(i32, i32)> {
    let (dx, dy) = ((b.0 - a.0) as f64, (b.1 - a.1) as f64);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ox, oy) = ((-dy / len * offset) as i32, (dx / len * offset) as i32);
    vec![(a.0 + ox, a.1 + oy), (b.0 + ox, b.1 + oy)]
}

/// One line of a curve chart: its label, colour and (cars, points) points.
type Line = (String, RGBColor, Vec<(u32, u32)>);

fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    lines: &[Line],
) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let all = lines.iter().flat_map(|l| l.2.iter());
    let max_cars = all.clone().map(|p| p.0).max().unwrap_or(1);
    let max_score = all.map(|p| p.1).max().unwrap_or(1);
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 26))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(0u32..max_cars + 1, 0u32..(max_score * 11 / 10).max(1))?;
    chart
        .configure_mesh()
        .x_desc("train cars")
        .y_desc("points")
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 18))
        .draw()?;
    for (label, colour, points) in lines {
        let colour = *colour;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(3),
            ))?
            .label(label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
            });
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 18))
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

const PLAYER_COLOURS: [RGBColor; 5] = [
    RGBColor(215, 40, 40),
    RGBColor(40, 90, 210),
    RGBColor(30, 150, 70),
    RGBColor(230, 150, 0),
    RGBColor(60, 60, 60),
];

fn draw_review<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    review: &Review,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let turns = review
        .players
        .iter()
        .map(|p| p.turns.len())
        .max()
        .unwrap_or(1)
        .max(1) as i64;
    let values = review.players.iter().flat_map(|p| {
        p.turns
            .iter()
            .flat_map(|t| [t.best, t.after_own])
            .chain([p.network_score, p.single_player_optimum])
    });
    let low = values.clone().min().unwrap_or(0);
    let high = values.max().unwrap_or(1).max(low + 1);
    let pad = ((high - low) / 10).max(1);
    // Room below the curves for the legend.
    let low = low - (high - low) / 2 - 4 * pad;
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(1i64..turns + 1, low - pad..high + pad)?;
    chart
        .configure_mesh()
        .x_desc("the player's turn")
        .y_desc("best final score still reachable (points)")
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 18))
        .draw()?;
    for (p, colour) in review.players.iter().zip(PLAYER_COLOURS.iter().cycle()) {
        let colour = *colour;
        let points: Vec<(i64, i64)> = p.turns.iter().map(|t| (t.turn as i64, t.best)).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(3)))?
            .label(format!(
                "{} (seat {}): final {} (single-player optimum {})",
                p.name, p.seat, p.network_score, p.single_player_optimum
            ))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
            });
        chart.draw_series(points.iter().map(|&q| Circle::new(q, 3, colour.filled())))?;
        // The final score, dashed across the game.
        let dashes = (1..=turns).step_by(2).map(|x| {
            PathElement::new(
                vec![
                    (x, p.network_score),
                    ((x + 1).min(turns + 1), p.network_score),
                ],
                colour.stroke_width(1),
            )
        });
        chart.draw_series(dashes)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .label_font((FONT, 16))
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Side-by-side horizontal bar charts, one per (title, rows) panel.
fn draw_panels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    panels: &[(&str, Vec<Bar>)],
    x_desc: &str,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.margin(12, 0, 0, 0).titled(title, (FONT, 26))?;
    for (area, (name, rows)) in root.split_evenly((1, panels.len())).iter().zip(panels) {
        draw_bars(area, name, rows, x_desc)?;
    }
    Ok(())
}

/// One bar of a panel: `value` solid, and where `behind` is set a lighter
/// bar under it to there (in every optimum, against in some).
struct Bar {
    label: String,
    value: i64,
    behind: Option<i64>,
}

impl Bar {
    fn new(label: String, value: i64) -> Bar {
        Bar {
            label,
            value,
            behind: None,
        }
    }

    /// The end furthest from 0.
    fn reach(&self) -> i64 {
        self.behind.map_or(self.value, |b| {
            if b.abs() > self.value.abs() {
                b
            } else {
                self.value
            }
        })
    }
}

fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    rows: &[Bar],
    x_desc: &str,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    // n rows are the n segments of 0..n-1 (at least two, for a valid range).
    let n = rows.len().max(2);
    let ends = rows.iter().flat_map(|r| [r.value, r.reach()]);
    let lo = ends.clone().min().unwrap_or(0).min(0);
    let hi = ends.max().unwrap_or(0).max(0);
    let pad = ((hi - lo) as f64 * 0.08).max(1.0);
    let x_range = (lo as f64 - if lo < 0 { pad } else { 0.0 })..(hi as f64 + pad);
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(290)
        .build_cartesian_2d(x_range, (0..n - 1).into_segmented())?;
    // The first row at the top.
    let label = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) if *i < rows.len() => rows[rows.len() - 1 - i].label.clone(),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(WHITE)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_labels(n)
        .y_label_formatter(&label)
        .x_desc(x_desc)
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 16))
        .draw()?;
    let blue = RGBColor(40, 90, 210);
    let light = RGBColor(160, 185, 240);
    let bar = |y: usize, v: i64, colour: RGBColor| {
        let mut bar = Rectangle::new(
            [
                (0.0, SegmentValue::Exact(y)),
                (v as f64, SegmentValue::Exact(y + 1)),
            ],
            colour.filled(),
        );
        bar.set_margin(4, 4, 0, 0);
        bar
    };
    let behind = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, r.behind?)));
    chart.draw_series(behind.map(|(i, v)| bar(rows.len() - 1 - i, v, light)))?;
    chart.draw_series(
        rows.iter()
            .enumerate()
            .map(|(i, r)| bar(rows.len() - 1 - i, r.value, blue)),
    )?;
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        let y = rows.len() - 1 - i;
        let end = r.reach();
        let (anchor, dx) = if end < 0 {
            (HPos::Right, -6)
        } else {
            (HPos::Left, 6)
        };
        let text = match r.behind {
            Some(b) => format!("{} / {b}", r.value),
            None => r.value.to_string(),
        };
        EmptyElement::at((end as f64, SegmentValue::CenterOf(y)))
            + Text::new(
                text,
                (dx, 0),
                TextStyle::from((FONT, 14).into_font()).pos(Pos::new(anchor, VPos::Center)),
            )
    }))?;
    Ok(())
}
