//! The player's calendar: which day it is where the player is (the daily puzzle changes at
//! the player's midnight), as days since 1970-01-01, and a day as a date to show.
//!
//! The local time zone's offset comes from the system: `localtime_r` on Unix (Linux, Android,
//! iOS, macOS), the browser's `Date` in a page; elsewhere the day is UTC's.

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Today in the player's calendar, as days since 1970-01-01.
pub fn today() -> i64 {
    let (now, offset) = now_and_offset();
    (now + offset).div_euclid(DAY)
}

/// Seconds since 1970-01-01 UTC, and the local time zone's offset east of UTC in seconds.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
fn now_and_offset() -> (i64, i64) {
    let date = js_sys::Date::new_0();
    let now = (date.get_time() / 1000.0) as i64;
    // `getTimezoneOffset` is in minutes west of UTC.
    (now, -(date.get_timezone_offset() as i64) * 60)
}

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
fn now_and_offset() -> (i64, i64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    (now, local_offset(now))
}

#[cfg(all(unix, not(all(target_family = "wasm", target_os = "unknown"))))]
fn local_offset(now: i64) -> i64 {
    let t = now as libc::time_t;
    // SAFETY: `localtime_r` reads `t` and writes only the `tm` it is given, both valid here
    // (an all-zero `tm` is a valid value of the plain C struct).
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let done = unsafe { libc::localtime_r(&t, &mut tm) };
    if done.is_null() {
        0
    } else {
        i64::from(tm.tm_gmtoff as i32)
    }
}

#[cfg(not(any(unix, all(target_family = "wasm", target_os = "unknown"))))]
fn local_offset(_now: i64) -> i64 {
    0
}

/// The date of `day` (days since 1970-01-01) in the proleptic Gregorian calendar: year, month
/// (1-12), day of the month (1-31).
pub fn date_of(day: i64) -> (i64, u32, u32) {
    // Howard Hinnant's days-to-civil algorithm.
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The day of a date (the inverse of [`date_of`]); `None` for a month or day out of range.
pub fn day_of(year: i64, month: u32, day: u32) -> Option<i64> {
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days_in_month {
        return None;
    }
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from(if month > 2 { month - 3 } else { month + 9 });
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `day` written as the ISO date, the same in every language: `2026-11-29`.
pub fn iso_date(day: i64) -> String {
    let (y, m, d) = date_of(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Reads an ISO date (`2026-11-29`) as a day.
pub fn parse_iso_date(text: &str) -> Result<i64, String> {
    let bad = || format!("not a date (YYYY-MM-DD): {text}");
    let mut parts = text.split('-');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let y: i64 = y.parse().map_err(|_| bad())?;
    let m: u32 = m.parse().map_err(|_| bad())?;
    let d: u32 = d.parse().map_err(|_| bad())?;
    day_of(y, m, d).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_days_agree_both_ways() {
        assert_eq!(date_of(0), (1970, 1, 1));
        assert_eq!(iso_date(20_421), "2025-11-29");
        assert_eq!(parse_iso_date("2026-11-29"), Ok(20_786));
        assert_eq!(date_of(-1), (1969, 12, 31));
        // Leap days, century rules included.
        assert_eq!(
            parse_iso_date("2024-02-29").map(iso_date),
            Ok("2024-02-29".into())
        );
        assert_eq!(day_of(2000, 2, 29).map(date_of), Some((2000, 2, 29)));
        assert_eq!(day_of(1900, 2, 29), None);
        assert_eq!(day_of(2023, 2, 29), None);
        assert_eq!(day_of(2023, 13, 1), None);
        for day in -800_000..800_000 {
            let (y, m, d) = date_of(day);
            assert_eq!(day_of(y, m, d), Some(day), "{y}-{m}-{d}");
        }
        assert!(parse_iso_date("2026-11").is_err());
        assert!(parse_iso_date("2026-11-31").is_err());
        assert!(parse_iso_date("today").is_err());
    }

    #[test]
    fn today_is_a_day_of_this_century() {
        let (year, _, _) = date_of(today());
        assert!((2020..2100).contains(&year), "{year}");
    }
}
