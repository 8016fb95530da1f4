import { bodyToText, headerValue } from './policy';

/**
 * The answer's body parser: `JSON.parse`, except that integer literals beyond 2^53 - 1 come out as
 * their exact decimal strings; everything else (and every SyntaxError) is what `JSON.parse` gives.
 * 1. No run of 16 or more digits (the common case: one native scan that skips 8+ characters at a
 *    time through text without digits): plain `JSON.parse`.
 * 2. One native `replace` with a replacement pattern (no callback per match) quotes every unsafe
 *    integer token in value position, then `JSON.parse`. The pattern matches only literals beyond
 *    the safe integers (17+ digits, or 16 digits above 9007199254740991), so safe numbers stay
 *    numbers. Strings are not skipped, which is safe: a quote inserted inside a string literal
 *    closes it right before a digit or '-', which `JSON.parse` always rejects; so a successful
 *    parse is exact, and a failed one falls to step 3.
 * 3. Otherwise the exact pass: the source-text reviver where the runtime has one (Node 22, 24),
 *    else the quoting of step 2 with whole string literals skipped (Node 20). The reviver is not
 *    the first choice: it is called for every value (`npm run bench`, case 4).
 */

/** Number.MAX_SAFE_INTEGER (2^53 - 1) as digits; exactly 16 of them. */
const MAX_SAFE_DIGITS = '9007199254740991';

/**
 * A run of 16 digits, spelled out: irregexp then skips through digit-free text several characters
 * at a time (`\d{16}` is scanned one character at a time). Step 1's test.
 */
const SIXTEEN_DIGITS = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/;
/** The same, with whole string literals beside it (the exact pass of Node 20, on text known to be valid JSON). */
const STRING_OR_LONG_RUN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d+/g;

/**
 * 16 digits above MAX_SAFE_DIGITS, as a pattern: equal to it up to some digit, greater there, any
 * digits after; e.g. `9(?:[1-9]\d{14}|0(?:[1-9]\d{13}|...))`.
 */
function aboveSafeDigits(k = 0): string {
	const digit = Number(MAX_SAFE_DIGITS[k]);
	const rest = MAX_SAFE_DIGITS.length - 1 - k;
	const here = digit < 9 ? `[${digit + 1}-9]${rest ? `\\d{${rest}}` : ''}` : undefined;
	const deeper = rest ? `${MAX_SAFE_DIGITS[k]}${aboveSafeDigits(k + 1)}` : undefined;
	const alternatives = [here, deeper].filter((x): x is string => x !== undefined);
	return alternatives.length > 1 ? `(?:${alternatives.join('|')})` : alternatives[0];
}

/**
 * An unsafe integer token in value position: after the start, `[`, `,` or `:` (and spaces); an
 * optional minus; 17+ digits without a leading zero, or 16 above the safe maximum; then spaces and
 * `,`, `]`, `}` or the end. `$1"$2"` quotes it.
 */
const UNSAFE_TOKEN = new RegExp(
	`(^[ \\t\\n\\r]*|[[,:][ \\t\\n\\r]*)(-?(?:[1-9]\\d{16,}|${aboveSafeDigits()}))(?=[ \\t\\n\\r]*(?:[,\\]}]|$))`,
	'g',
);

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;

/** Whether `run` (digits with an optional minus, as STRING_OR_LONG_RUN finds them) is an integer literal beyond the safe integers. */
function isUnsafeRun(run: string): boolean {
	const start = run.charCodeAt(0) === 45 ? 1 : 0;
	const digits = run.length - start;
	// a leading zero is no integer literal; 16 digits compare as text with the safe maximum
	if (digits < 16 || run.charCodeAt(start) === 48) return false;
	return digits > 16 || run.slice(start) > MAX_SAFE_DIGITS;
}

/** True when `literal` is a JSON integer literal whose value is beyond the safe integers ("-9007199254740993"). */
export function isUnsafeIntegerLiteral(literal: string): boolean {
	return /^-?(0|[1-9]\d*)$/.test(literal) && isUnsafeRun(literal);
}

/** Whether this runtime hands a reviver the source text of each primitive value. */
export const HAS_SOURCE_TEXT = ((): boolean => {
	let source: string | undefined;
	JSON.parse('12', (_key: string, value: unknown, context?: { source?: string }) => {
		source ??= context?.source;
		return value;
	});
	return source === '12';
})();

/** `JSON.parse` with the source-text reviver (only where HAS_SOURCE_TEXT): an unsafe integer literal becomes its own source text. */
export function parseWithSourceText(text: string): unknown {
	const reviver = (_key: string, value: unknown, context?: { source?: string }) =>
		typeof value === 'number' &&
		!Number.isSafeInteger(value) &&
		context?.source !== undefined &&
		isUnsafeIntegerLiteral(context.source)
			? context.source
			: value;
	return JSON.parse(text, reviver as (key: string, value: unknown) => unknown) as unknown;
}

/** Quotes `run` (found at `at`) when it is an unsafe integer token in value position (the exact pass of Node 20). */
function quoteRun(run: string, at: number, text: string): string {
	if (run.charCodeAt(0) === 34 || !isUnsafeRun(run)) return run;
	let before = at - 1;
	while (isSpace(text.charCodeAt(before))) before--;
	const b = text.charCodeAt(before);
	let after = at + run.length;
	while (isSpace(text.charCodeAt(after))) after++;
	const a = text.charCodeAt(after);
	if (
		(before >= 0 && b !== 91 && b !== 44 && b !== 58) ||
		(after < text.length && a !== 44 && a !== 93 && a !== 125)
	)
		return run;
	return `"${run}"`;
}

/**
 * Parse JSON like `JSON.parse(text)` (no reviver), except that integer literals outside
 * Number.MIN_SAFE_INTEGER..Number.MAX_SAFE_INTEGER come out as exact decimal strings.
 */
export function parseJsonLossless(text: string): unknown {
	// JSON.parse coerces its argument to a string; so does this
	const source = typeof text === 'string' ? text : `${text as unknown as string}`;
	if (!SIXTEEN_DIGITS.test(source)) return JSON.parse(source);
	const rewritten = source.replace(UNSAFE_TOKEN, '$1"$2"');
	// nothing quoted (16+ digit runs that are safe, or not in value position): nothing to keep
	if (rewritten.length === source.length) return JSON.parse(source);
	try {
		return JSON.parse(rewritten) as unknown;
	} catch {
		// digit runs inside strings, or invalid JSON: the exact pass
	}
	if (HAS_SOURCE_TEXT) return parseWithSourceText(source);
	// invalid JSON throws JSON.parse's own error here; valid JSON makes the string-skipping pass linear
	JSON.parse(source);
	return JSON.parse(
		source.replace(STRING_OR_LONG_RUN, (run: string, at: number) => quoteRun(run, at, source)),
	) as unknown;
}

/** An answer's body: JSON (exact int64) when it says or looks so, else its text; undefined when empty. */
export function parseBody(headers: Record<string, unknown>, raw: unknown): unknown {
	const text = bodyToText(raw);
	if (text.trim() === '') return undefined;
	if (/json/i.test(headerValue(headers, 'content-type') ?? '') || /^\s*[[{]/.test(text)) {
		try {
			return parseJsonLossless(text);
		} catch {
			// not JSON after all: the text as it came
		}
	}
	return text;
}
