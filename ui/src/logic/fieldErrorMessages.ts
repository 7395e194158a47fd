// A field error in the window's language. The engine names the rule a field broke (`too_long`)
// and its arguments (`max`, `got`); this table holds one catalog message per rule (the "jobs"
// catalog), and the English sentence the engine sent is the fallback for a rule the window does
// not know yet (a newer engine) or a problem without a rule. The ids are the core's
// (crates/kairos-core/src/validate/rule.rs, `FieldRule`): adding a rule there means a line here.
import { i18n } from "@lingui/core";
import { formatDate, formatDateTime, formatMonthYear } from "../i18n/format";
import { currentLocale, intlLocale } from "../i18n/locales";
import type { FieldError } from "../ipc/types";

/** Rule id → its message (the English text is the catalog id; the placeholders are the rule's args). */
export const RULE_MESSAGES: Readonly<Record<string, string>> = {
  required: /*i18n*/ "This field is required.",
  required_one_of: /*i18n*/ "Choose one of {expected}.",
  frequency_required: /*i18n*/ "Choose a frequency: {expected}.",
  job_invalid: /*i18n*/ "The job definition is invalid.",
  more_problems:
    /*i18n*/ "{count, plural, one {# more problem is not listed.} other {# more problems are not listed.}}",
  start_time_too_far:
    /*i18n*/ "The start time can be at most {max_months, plural, one {# month} other {# months}} ahead, no later than {latest}.",
  interval_must_be_one:
    /*i18n*/ "Must be 1 with this frequency (a recurrence spans at most 18 months); you entered {got}.",
  interval_out_of_range: /*i18n*/ "Must be between 1 and {max, number} with this frequency; you entered {got}.",
  too_small: /*i18n*/ "Must be at least {min, number}; got {got}.",
  out_of_range: /*i18n*/ "Must be between {min, number} and {max, number}; you entered {got}.",
  not_a_time_zone: /*i18n*/ "“{name}” is not a time zone; choose one such as Europe/Berlin, America/New_York or UTC.",
  only_with_frequency_week: /*i18n*/ "Weekdays can only be chosen when the job repeats weekly.",
  too_many_week_days: /*i18n*/ "You can choose at most {max, number} weekdays.",
  only_with_frequency_month_or_year:
    /*i18n*/ "Days of the month can only be chosen when the job repeats monthly or yearly.",
  not_a_month_day:
    /*i18n*/ "Must be between 1 and 31, or between -31 and -1 to count from the end of the month (-1 is the last day); you entered {got}.",
  week_day_required: /*i18n*/ "Choose a day of the week.",
  not_an_occurrence:
    /*i18n*/ "Must be 1 to 5 (first to fifth) or -1 to -5 (last to fifth from the end); you entered {got}.",
  list_value_out_of_range: /*i18n*/ "Each value must be between {min, number} and {max, number}; {got} is not.",
  catch_up_max_age_out_of_range: /*i18n*/ "Must be longer than zero and at most 18 months (P548D); you entered {got}.",
  never_runs_months_unreached:
    /*i18n*/ "This schedule never runs: repeating from {from_month}, it never reaches one of the chosen months.",
  never_runs_day_of_month:
    /*i18n*/ "This schedule never runs: from {from_month} it reaches only {months}, and {month_count, plural, one {that month has no day {day}.} other {none of these months has a day {day}.}}",
  never_runs_days_selected:
    /*i18n*/ "This schedule never runs: from {from_month} it reaches only {months}, and {month_count, plural, one {that month has none of the chosen days.} other {none of these months has one of the chosen days.}}",
  never_runs_hours:
    /*i18n*/ "This schedule never runs: starting at {from} ({zone}), it reaches only the hours {hours}, and none of them is chosen.",
  never_runs_minutes:
    /*i18n*/ "This schedule never runs: starting at {from} ({zone}), it never reaches one of the chosen minutes.",
  never_runs_minutes_in_hours:
    /*i18n*/ "This schedule never runs: starting at {from} ({zone}), it never reaches one of the chosen minutes within the chosen hours.",
  nested_error_action: /*i18n*/ "An error action cannot have an error action of its own.",
  required_for_action_type: /*i18n*/ "This field is required for an action of type {action_type}.",
  max_retry_interval_out_of_range:
    /*i18n*/ "Must be at least the retry interval ({min}) and at most 18 months (P548D); you entered {got}.",
  retry_interval_out_of_range: /*i18n*/ "Must be between 15 seconds (PT15S) and 18 months (P548D); you entered {got}.",
  too_long: /*i18n*/ "Can be at most {max, number} characters; this has {got, number}.",
  not_an_http_url: /*i18n*/ "Must be an absolute URL starting with http:// or https://.",
  https_required: /*i18n*/ "Must start with https:// for an Https action.",
  not_a_url: /*i18n*/ "“{got}” is not a valid URL.",
  method_required: /*i18n*/ "Enter an HTTP method, such as GET, POST, PUT or DELETE.",
  not_a_method: /*i18n*/ "“{got}” is not an HTTP method name.",
  too_many_headers: /*i18n*/ "At most {max, number} headers are allowed; there are {got, number}.",
  headers_too_long:
    /*i18n*/ "Header names and values can total at most {max, number} characters; they have {got, number}.",
  not_a_header_name: /*i18n*/ "“{name}” is not a valid header name.",
  header_value_line_break: /*i18n*/ "A header value cannot contain line breaks.",
  required_for_authentication: /*i18n*/ "This field is required for {kind} authentication.",
  pfx_required: /*i18n*/ "Required for client certificate authentication: the base64 encoding of a PFX file.",
  not_a_pfx: /*i18n*/ "Must be the base64 encoding of a PFX (PKCS #12) file.",
  not_a_storage_account: /*i18n*/ "Must be a storage account name: 3 to 24 lowercase letters and digits.",
  not_a_queue_name:
    /*i18n*/ "Must be a queue name: 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit.",
  sas_token_required: /*i18n*/ "Enter a SAS token (a query string that grants add permission).",
  not_a_service_bus_namespace:
    /*i18n*/ "Must be a Service Bus namespace name: letters, digits and hyphens, at most 50.",
  not_an_entity_path: /*i18n*/ "Must be an entity path of at most 260 characters that does not start or end with “/”.",
  service_bus_authentication_required: /*i18n*/ "Enter a SAS key name and a SAS key.",
  not_a_property_name: /*i18n*/ "“{name}” cannot be sent as an HTTP header name.",
  value_line_break: /*i18n*/ "A value cannot contain line breaks.",
  too_many_calendars:
    /*i18n*/ "A job collection can define at most {max, number} calendars; this one has {got, number}.",
  calendar_name_clash:
    /*i18n*/ "The calendar “{name}” differs from the calendar “{other}” only in case; calendar names ignore case, so rename or remove one.",
  calendar_name_blank: /*i18n*/ "A calendar name cannot be blank.",
  calendar_name_too_long: /*i18n*/ "A calendar name can have at most {max, number} characters.",
  calendar_name_control_characters: /*i18n*/ "A calendar name cannot contain control characters.",
  too_many_blackouts: /*i18n*/ "A job can observe at most {max, number} calendars; this one lists {got, number}.",
  calendar_name_outside_collection:
    /*i18n*/ "Only a job in a job collection can refer to a calendar by name, such as “{name}”; enter the calendar's dates here instead.",
  unknown_calendar:
    /*i18n*/ "The job collection has no calendar named “{name}”. {known_count, plural, =0 {It defines none.} other {It defines {known}.}}",
  too_many_dates:
    /*i18n*/ "A calendar can list at most {max, number} dates (use ranges for longer spans); this one has {got, number}.",
  too_many_ranges: /*i18n*/ "A calendar can list at most {max, number} ranges; this one has {got, number}.",
  end_before_start: /*i18n*/ "Must be on or after the start ({start}).",
  too_many_windows: /*i18n*/ "A calendar can list at most {max, number} weekly windows; this one has {got, number}.",
  window_days_required: /*i18n*/ "Choose the days of the week the window applies to.",
  window_end_equals_start:
    /*i18n*/ "Must differ from the start: a window from 22:00 to 06:00 crosses midnight, one from 00:00 to 24:00 is the whole day.",
  date_required: /*i18n*/ "Enter a date, such as 2030-12-24.",
  not_a_date: /*i18n*/ "“{got}” is not a date; use YYYY-MM-DD, such as 2030-12-25.",
  not_a_time: /*i18n*/ "“{got}” is not a time of day; use HH:MM from 00:00 to {latest}.",
  command_line_required: /*i18n*/ "Enter the command line to run.",
  program_required: /*i18n*/ "Enter the program to run: a path, or a name found on PATH.",
  contains_nul: /*i18n*/ "Cannot contain a NUL character.",
  arguments_with_shell:
    /*i18n*/ "Must be empty when the command runs in a shell: write the arguments into the command line.",
  too_many_arguments: /*i18n*/ "At most {max, number} arguments are allowed.",
  command_line_too_long: /*i18n*/ "The command line has {got, number} characters; it can have at most {max, number}.",
  not_an_absolute_path: /*i18n*/ "Must be an absolute path, such as /home/me or C:\\Users\\me.",
  too_many_variables: /*i18n*/ "At most {max, number} environment variables are allowed.",
  not_a_variable_name: /*i18n*/ "“{name}” is not a variable name: it must not be empty or contain “=” or NUL.",
  timeout_out_of_range: /*i18n*/ "Must be between 1 second (PT1S) and a week (P7D); the default is an hour (PT1H).",
  no_exit_codes: /*i18n*/ "List at least one exit code (leave the field empty for 0).",
  too_many_exit_codes: /*i18n*/ "At most {max, number} exit codes are allowed.",
  not_an_exit_code: /*i18n*/ "{got} is not an exit code: it must be between -2147483648 and 4294967295.",
  job_name_taken: /*i18n*/ "A job with this name already exists.",
  collection_name_taken: /*i18n*/ "A job collection with this name already exists.",
  file_required: /*i18n*/ "Choose a file.",
  path_not_absolute: /*i18n*/ "Give the full path ({got} is relative).",
  passphrase_required: /*i18n*/ "Give a passphrase to seal the secrets with.",
};

type ArgValue = string | number;

/** "Http, Https, Command" (the engine joins lists with ", ") → its items. */
const items = (v: ArgValue) =>
  String(v)
    .split(", ")
    .filter((s) => s !== "");

function list(values: string[], type: "conjunction" | "disjunction"): string {
  const tag = intlLocale(currentLocale());
  try {
    return new Intl.ListFormat(tag, { style: "long", type }).format(values);
  } catch {
    return values.join(", ");
  }
}

function monthName(month: number): string {
  // Mid-month at noon UTC: no time zone moves it into another month.
  return new Intl.DateTimeFormat(intlLocale(currentLocale()), { month: "long", timeZone: "UTC" }).format(
    Date.UTC(2024, month - 1, 15, 12),
  );
}

/**
 * The arguments as the message shows them: lists as the language writes lists, months by name,
 * dates and instants in the language's own order; names and what was entered stay as they are.
 */
export function displayArgs(args: Record<string, ArgValue>): Record<string, ArgValue> {
  const out: Record<string, ArgValue> = { ...args };
  for (const [key, value] of Object.entries(args)) {
    const text = String(value);
    if (key === "expected") out[key] = list(items(value), "disjunction");
    else if (key === "known") out[key] = list(items(value), "conjunction");
    else if (key === "months")
      out[key] = list(
        items(value).map((m) => monthName(Number(m))),
        "conjunction",
      );
    else if (key === "hours") out[key] = list(items(value), "conjunction");
    else if (key === "from_month" && /^\d{4}-\d{2}$/.test(text))
      out[key] = formatMonthYear(`${text}-15T12:00:00Z`, undefined, "UTC");
    else if (key === "latest" && /^\d{4}-\d{2}-\d{2}T/.test(text)) out[key] = formatDateTime(text, undefined, "UTC");
    else if (key === "start" && /^\d{4}-\d{2}-\d{2}$/.test(text))
      out[key] = formatDate(`${text}T12:00:00Z`, undefined, "UTC");
  }
  return out;
}

/** The field error's sentence in the window's language; the engine's English when the rule is unknown. */
export function fieldErrorText(e: FieldError): string {
  const rule = (e as { rule?: string | null }).rule;
  const message = rule && Object.hasOwn(RULE_MESSAGES, rule) ? RULE_MESSAGES[rule] : undefined;
  if (!message) return e.message;
  const args = (e as { args?: Partial<Record<string, ArgValue>> }).args ?? {};
  const defined = Object.fromEntries(
    Object.entries(args).filter((kv): kv is [string, ArgValue] => kv[1] !== undefined),
  );
  return i18n._(message, displayArgs(defined));
}
