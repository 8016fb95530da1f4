/**
 * Lossless JSON parsing for Work Order Service responses.
 *
 * The service returns int64 identifiers (note ids such as 9007199254740993 or
 * 9223372036854775807) that `JSON.parse` silently rounds to the nearest double.
 * `parseJsonLossless` returns every integer literal outside JavaScript's safe
 * range (|n| > 2^53 - 1) as its exact decimal string; everything else
 * (safe integers, fractions, exponents, strings, structure, errors) is exactly
 * what `JSON.parse` produces.
 *
 * Design:
 *  1. A native regex looks for runs of 16+ digits. None found -> `JSON.parse(text)`.
 *  2. Runs that form a complete integer token in value position (judged from
 *     the neighbouring characters) with magnitude above 2^53 - 1 are wrapped
 *     in quotes and the result goes to `JSON.parse`.
 *     This optimistic pass ignores strings; it is safe because a quote wrongly
 *     inserted inside a string literal always makes the text invalid.
 *  3. If that parse fails (long digit runs inside strings), the exact pass: where
 *     the runtime hands a reviver the source text of each value (JSON.parse
 *     source text access: n8n's Node 22 and 24), `JSON.parse` with a reviver that
 *     returns an unsafe integer's own source text; elsewhere (Node 20) a pass that
 *     tracks string boundaries (indexOf + backslash parity) and quotes only tokens
 *     outside strings. Either way nothing inside a string literal is changed.
 *
 * Why the reviver is not the first choice: on Node 24 `JSON.parse` with a reviver
 * takes about 9x as long as without on the bench's 5 MB of notes (it calls back
 * for every value), the quoting pass about 2x (`npm run bench`, case 4).
 * Invalid input throws the very SyntaxError `JSON.parse(text)` throws.
 */

import { bodyToText, headerValue } from './http';

/** Number.MAX_SAFE_INTEGER (2^53 - 1) as digits; exactly 16 of them. */
const MAX_SAFE_DIGITS = '9007199254740991';

/** Largest signed 64-bit integer (2^63 - 1) as digits; 19 of them. */
export const INT64_MAX_STRING = '9223372036854775807';

/**
 * Runs of 16 or more ASCII digits: the only places where an unsafe integer
 * literal can be. (`\d` without the `u` flag is exactly [0-9].) Spelled out
 * instead of `\d{16,}` because irregexp can then skip ahead Boyer-Moore style,
 * which makes the scan of a digit-free region ~5x faster.
 */
const LONG_DIGIT_RUN = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d+/g;

/** A JSON integer literal: optional minus, then 0 or a digit string without a leading zero. */
const JSON_INTEGER = /^-?(?:0|[1-9]\d*)$/;

/** The reviver's third argument where the runtime gives source text access. */
type ReviverContext = { source?: string } | undefined;

/** Whether this runtime hands a reviver the source text of each primitive value. */
export const HAS_SOURCE_TEXT = ((): boolean => {
	let source: string | undefined;
	JSON.parse('12', (_key: string, value: unknown, context?: ReviverContext) => {
		source ??= context?.source;
		return value;
	});
	return source === '12';
})();

/** The reviver of the exact pass: an unsafe integer literal becomes its own source text. */
function exactIntegers(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
	if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
	const source = context?.source;
	return source !== undefined && isUnsafeIntegerLiteral(source) ? source : value;
}

/** `JSON.parse` with the source-text reviver (only where HAS_SOURCE_TEXT). */
export function parseWithSourceText(text: string): unknown {
	return JSON.parse(text, exactIntegers as (key: string, value: unknown) => unknown) as unknown;
}

const CH_TAB = 9;
const CH_LF = 10;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_COMMA = 44;
const CH_MINUS = 45;
const CH_ZERO = 48;
const CH_COLON = 58;
const CH_LBRACKET = 91;
const CH_BACKSLASH = 92;
const CH_RBRACKET = 93;
const CH_RBRACE = 125;

/** True for the four JSON whitespace characters. */
function isJsonWhitespace(code: number): boolean {
	return code === CH_SPACE || code === CH_LF || code === CH_CR || code === CH_TAB;
}

/** True when a digit string without leading zeros has a value above 2^53 - 1. */
function digitsExceedSafe(digits: string): boolean {
	return digits.length > 16 || (digits.length === 16 && digits > MAX_SAFE_DIGITS);
}

/**
 * True when `literal` is a JSON integer literal (e.g. "-9007199254740993")
 * whose value JavaScript numbers cannot represent exactly as a safe integer.
 * Fractions, exponents and non-JSON spellings return false.
 */
export function isUnsafeIntegerLiteral(literal: string): boolean {
	if (!JSON_INTEGER.test(literal)) return false;
	const digits = literal.charCodeAt(0) === CH_MINUS ? literal.slice(1) : literal;
	return digitsExceedSafe(digits);
}

/**
 * Index of the quote closing a string whose body starts at `from`
 * (just after the opening quote), or -1 when the string is unterminated.
 * A quote is escaped exactly when an odd number of backslashes precede it.
 */
function findStringEnd(text: string, from: number): number {
	let quote = text.indexOf('"', from);
	while (quote !== -1) {
		let backslashes = 0;
		let i = quote - 1;
		while (text.charCodeAt(i) === CH_BACKSLASH) {
			backslashes++;
			i--;
		}
		if ((backslashes & 1) === 0) return quote;
		quote = text.indexOf('"', quote + 1);
	}
	return -1;
}

/**
 * Decide whether the digit run text[runStart, runEnd) (16+ digits) is a whole
 * integer token in value position whose value is unsafe, and so must be
 * quoted. Returns the token start (including a leading minus) or -1 to leave
 * the text alone.
 *
 * In valid JSON a number value is preceded (after whitespace) by '[', ',', ':'
 * or the start of the text, and followed (after whitespace) by ',', ']', '}'
 * or the end. Runs in any other context are digits inside a string, part of
 * a fraction/exponent, or invalid JSON, and are left for JSON.parse. This also
 * keeps the rewrite from making invalid JSON valid: leading zeros, tokens glued
 * to other characters and tokens in object-key position are never quoted.
 */
function unsafeTokenStart(text: string, runStart: number, runEnd: number): number {
	if (text.charCodeAt(runStart) === CH_ZERO) return -1;

	let i = runEnd;
	while (isJsonWhitespace(text.charCodeAt(i))) i++;
	if (i < text.length) {
		const after = text.charCodeAt(i);
		if (after !== CH_COMMA && after !== CH_RBRACKET && after !== CH_RBRACE) return -1;
	}

	let tokenStart = runStart;
	if (text.charCodeAt(tokenStart - 1) === CH_MINUS) tokenStart--;
	i = tokenStart - 1;
	while (isJsonWhitespace(text.charCodeAt(i))) i--;
	if (i >= 0) {
		const before = text.charCodeAt(i);
		if (before !== CH_LBRACKET && before !== CH_COMMA && before !== CH_COLON) return -1;
	}

	const len = runEnd - runStart;
	if (len < 16) return -1;
	if (len === 16 && text.slice(runStart, runEnd) <= MAX_SAFE_DIGITS) return -1;
	return tokenStart;
}

/**
 * Exact pass: quote only the unsafe integer tokens that lie outside string
 * literals, tracking string boundaries from the start of the text. Returns
 * the rewritten text ('' when nothing needs quoting).
 */
function quoteUnsafeTokensOutsideStrings(source: string): string {
	const runs = LONG_DIGIT_RUN;
	runs.lastIndex = 0;
	let run = runs.exec(source);
	let out = ''; // rewritten text up to `copied`
	let copied = 0; // source[copied..] has not been appended to `out` yet
	let pos = 0; // scan position; always outside string literals

	while (run !== null) {
		const runStart = run.index;
		const runEnd = runStart + run[0].length;
		let next = runEnd;
		let inString = false;

		// Skip whole strings that open before the run; stop once one contains it.
		for (;;) {
			const open = source.indexOf('"', pos);
			if (open === -1 || open > runStart) break;
			const close = findStringEnd(source, open + 1);
			// An unterminated string swallows the rest: no further tokens exist.
			if (close === -1) return copied === 0 ? '' : out + source.slice(copied);
			pos = close + 1;
			if (close > runStart) {
				inString = true;
				next = pos;
				break;
			}
		}

		if (!inString) {
			const tokenStart = unsafeTokenStart(source, runStart, runEnd);
			if (tokenStart !== -1) {
				out += source.slice(copied, tokenStart) + '"' + source.slice(tokenStart, runEnd) + '"';
				copied = runEnd;
			}
			pos = runEnd;
		}

		runs.lastIndex = next;
		run = runs.exec(source);
	}
	return copied === 0 ? '' : out + source.slice(copied);
}

/**
 * Parse JSON like `JSON.parse(text)` (no reviver), except that integer
 * literals outside Number.MIN_SAFE_INTEGER..Number.MAX_SAFE_INTEGER come out
 * as exact decimal strings ("9223372036854775807", "-9007199254740993").
 * Safe integers stay numbers; literals with a fraction or exponent follow
 * JSON.parse (1e30 -> 1e+30). Invalid JSON throws JSON.parse's SyntaxError.
 */
export function parseJsonLossless(text: string): unknown {
	// JSON.parse coerces its argument to a string; do the same.
	const source = typeof text === 'string' ? text : `${text as unknown as string}`;

	const runs = LONG_DIGIT_RUN;
	runs.lastIndex = 0;
	let run = runs.exec(source);
	if (run === null) return JSON.parse(source);

	// Optimistic pass: quote every unsafe integer token without tracking
	// strings. If a quoted run was really inside a string literal, the
	// inserted quote (preceded by whitespace, '[', ',' or ':', never by a
	// backslash) closes that string right before a digit or '-', which
	// JSON.parse always rejects. So a successful parse proves every rewrite
	// hit a real number token in value position, and the result is exact.
	let out = '';
	let copied = 0;
	do {
		const runStart = run.index;
		const runEnd = runStart + run[0].length;
		const tokenStart = unsafeTokenStart(source, runStart, runEnd);
		if (tokenStart !== -1) {
			out += source.slice(copied, tokenStart) + '"' + source.slice(tokenStart, runEnd) + '"';
			copied = runEnd;
		}
		run = runs.exec(source);
	} while (run !== null);
	if (copied === 0) return JSON.parse(source);
	try {
		return JSON.parse(out + source.slice(copied)) as unknown;
	} catch {
		// Long digit runs inside strings, or invalid JSON: take the exact pass.
	}
	if (HAS_SOURCE_TEXT) return parseWithSourceText(source);

	const rewritten = quoteUnsafeTokensOutsideStrings(source);
	if (rewritten === '') return JSON.parse(source);
	try {
		return JSON.parse(rewritten) as unknown;
	} catch {
		// Invalid JSON: report the error exactly as JSON.parse does for the original text
		// (positions in the rewritten text are shifted by the added quotes).
	}
	return JSON.parse(source);
}

/** Outcome of validating an int64 identifier. */
export type Int64Check = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Validate a positive int64 identifier (1..9223372036854775807) given as a
 * safe integer number, a bigint or a string of ASCII digits, and return its
 * canonical digits (leading zeros removed). Rejects fractions, exponents,
 * signs, whitespace, zero/negatives, values above int64 max, and numbers
 * above 2^53 - 1 (they may already have lost digits; pass such ids as strings).
 */
export function checkInt64(value: unknown): Int64Check {
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return { ok: false, reason: 'not a finite number' };
		if (!Number.isInteger(value)) return { ok: false, reason: 'not an integer' };
		if (value < 1) return { ok: false, reason: 'must be 1 or greater' };
		if (!Number.isSafeInteger(value)) {
			return {
				ok: false,
				reason:
					'number above 9007199254740991 is ambiguous (it may already have lost digits); pass the id as a string',
			};
		}
		return { ok: true, value: String(value) };
	}
	let digits: string;
	if (typeof value === 'bigint') {
		if (value < 1n) return { ok: false, reason: 'must be 1 or greater' };
		digits = value.toString();
	} else if (typeof value === 'string') {
		if (!/^\d+$/.test(value)) {
			return { ok: false, reason: 'must contain only the digits 0-9 (no sign, spaces, fraction or exponent)' };
		}
		digits = value.replace(/^0+/, '');
		if (digits === '') return { ok: false, reason: 'must be 1 or greater' };
	} else {
		return { ok: false, reason: `expected a number or digit string, got ${value === null ? 'null' : typeof value}` };
	}
	if (digits.length > 19 || (digits.length === 19 && digits > INT64_MAX_STRING)) {
		return { ok: false, reason: 'exceeds the int64 maximum 9223372036854775807' };
	}
	return { ok: true, value: digits };
}

/**
 * Canonical digits of a positive int64 id (see `checkInt64`), or undefined
 * when the value is not acceptable.
 */
export function toInt64String(value: unknown): string | undefined {
	const result = checkInt64(value);
	return result.ok ? result.value : undefined;
}

/** An answer's body: JSON (exact int64) when it says or looks so, else its text; undefined when empty. */
export function parseBody(headers: Record<string, unknown>, raw: unknown): unknown {
	const text = bodyToText(raw);
	if (text.trim() === '') return undefined;
	const contentType = headerValue(headers, 'content-type') ?? '';
	if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
		try {
			return parseJsonLossless(text);
		} catch {
			// fall through: return the text as it came
		}
	}
	return text;
}
