//! Dates and times as a player reads them: in the device's time zone, in each language's usual
//! form ("7/12/2026 14:05" in Vietnamese, "7 Dec 2026, 14:05" in English). Stored times are UTC
//! (seconds since 1970); they are turned into local time only to be shown.

use super::Lang;

/// The offset from UTC, in seconds east of it (`7 * 3600` for Vietnam), that the device's time
/// zone has at the UTC time `utc_secs` (summer time included where the zone has it). `None`
/// when the device does not say: the time is then shown in UTC, and says so.
pub fn local_offset(utc_secs: i64) -> Option<i32> {
    #[cfg(target_arch = "wasm32")]
    {
        // `getTimezoneOffset` is UTC minus local time, in minutes.
        let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(utc_secs as f64 * 1000.0));
        let minutes = date.get_timezone_offset();
        minutes.is_finite().then(|| -(minutes as i32) * 60)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        // chrono reads the zone itself (`TZ`, /etc/localtime, the system's API): no libc call
        // that would refuse in a program with several threads.
        use chrono::{Offset, TimeZone};
        chrono::Local.timestamp_opt(utc_secs, 0).single().map(|t| t.offset().fix().local_minus_utc())
    }
}

/// A UTC time (seconds since 1970) in the device's time zone, in `lang`'s usual form.
pub fn local_date_time(lang: Lang, utc_secs: i64) -> String {
    date_time(lang, utc_secs, local_offset(utc_secs))
}

/// A UTC time (seconds since 1970) at the offset `offset` (seconds east of UTC), in `lang`'s
/// usual form: "7/12/2026 14:05" in Vietnamese, "7 Dec 2026, 14:05" in English. Without an
/// offset the time is UTC and ends with " UTC".
pub fn date_time(lang: Lang, utc_secs: i64, offset: Option<i32>) -> String {
    let local = utc_secs.saturating_add(i64::from(offset.unwrap_or(0)));
    let (year, month, day) = civil(local.div_euclid(86_400));
    let minutes = local.rem_euclid(86_400) / 60;
    let (hour, minute) = (minutes / 60, minutes % 60);
    let zone = if offset.is_none() { " UTC" } else { "" };
    match lang {
        Lang::Vi => format!("{day}/{month}/{year} {hour:02}:{minute:02}{zone}"),
        Lang::En => {
            const MONTHS: [&str; 12] =
                ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
            let name = MONTHS[(month - 1) as usize];
            format!("{day} {name} {year}, {hour:02}:{minute:02}{zone}")
        }
    }
}

/// The calendar date (year, month 1–12, day 1–31) of a day counted from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, proleptic Gregorian).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-07 07:05 UTC.
    const STORED: i64 = 1_796_627_100;

    #[test]
    fn a_stored_utc_time_is_shown_in_the_given_zone() {
        let vietnam = Some(7 * 3600);
        assert_eq!(date_time(Lang::Vi, STORED, vietnam), "7/12/2026 14:05");
        assert_eq!(date_time(Lang::En, STORED, vietnam), "7 Dec 2026, 14:05");
        // West of UTC the day can be the one before; half-hour zones keep their minutes.
        assert_eq!(date_time(Lang::Vi, STORED, Some(-8 * 3600)), "6/12/2026 23:05");
        assert_eq!(date_time(Lang::En, STORED, Some(5 * 3600 + 1800)), "7 Dec 2026, 12:35");
        // No zone known: UTC, said.
        assert_eq!(date_time(Lang::Vi, STORED, None), "7/12/2026 07:05 UTC");
        assert_eq!(date_time(Lang::En, STORED, None), "7 Dec 2026, 07:05 UTC");
    }

    #[test]
    fn calendar_days_across_months_years_and_leap_days() {
        assert_eq!(date_time(Lang::Vi, 0, Some(0)), "1/1/1970 00:00");
        assert_eq!(date_time(Lang::Vi, 951_782_400, Some(0)), "29/2/2000 00:00");
        assert_eq!(date_time(Lang::En, 1_700_000_000, Some(0)), "14 Nov 2023, 22:13");
        // New Year's Eve in UTC is New Year's Day in Vietnam.
        assert_eq!(date_time(Lang::En, 1_798_761_599, Some(7 * 3600)), "1 Jan 2027, 06:59");
        // Before 1970, a day west of it.
        assert_eq!(date_time(Lang::Vi, 0, Some(-3600)), "31/12/1969 23:00");
    }

    #[test]
    fn the_device_gives_a_plausible_offset() {
        // Whatever the machine's zone, an offset is within a day, in whole minutes.
        if let Some(offset) = local_offset(STORED) {
            assert!(offset.abs() < 86_400 && offset % 60 == 0, "{offset}");
        }
    }
}
