import { bodyToText, headerValue } from './policy';

/**
 * The answer's body parser: `JSON.parse`, except that integer literals beyond 2^53 - 1 come out as
 * their exact decimal strings; everything else (and every SyntaxError) is what `JSON.parse` gives.
 * 1. No run of 16 or more digits: plain `JSON.parse`.
 * 2. One native `replace` quotes every unsafe integer token in value position, then `JSON.parse`.
 *    Strings are ignored, which is safe: a quote inserted inside a string literal closes it right
 *    before a digit or '-', which `JSON.parse` always rejects; a successful parse is exact.
 * 3. Otherwise the exact pass: the source-text reviver where the runtime has one (Node 22, 24),
 *    else the quoting of step 2 with whole string literals skipped (Node 20). The reviver is not
 *    the first choice: it is called for every value (`npm run bench`, case 4).
 */

/** Number.MAX_SAFE_INTEGER (2^53 - 1) as digits; exactly 16 of them. */
const MAX_SAFE_DIGITS = '9007199254740991';

/** A run of 16+ digits, with its minus (spelled out so that irregexp skips digit-free text quickly). */
const LONG_RUN = /-?\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d+/g;
/** The same, with whole string literals beside it (the exact pass of Node 20, on text known to be valid JSON). */
const STRING_OR_LONG_RUN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d+/g;

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;

/** Whether `run` (digits with an optional minus, as LONG_RUN finds them) is an integer literal beyond the safe integers. */
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

/** Quotes `run` (found at `at`) when it is an unsafe integer token in value position; `quoted` counts the runs it quoted. */
function quoteRun(run: string, at: number, text: string, quoted: { count: number }): string {
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
	quoted.count++;
	return `"${run}"`;
}

/**
 * Parse JSON like `JSON.parse(text)` (no reviver), except that integer literals outside
 * Number.MIN_SAFE_INTEGER..Number.MAX_SAFE_INTEGER come out as exact decimal strings.
 */
export function parseJsonLossless(text: string): unknown {
	// JSON.parse coerces its argument to a string; so does this
	const source = typeof text === 'string' ? text : `${text as unknown as string}`;
	LONG_RUN.lastIndex = 0;
	if (!LONG_RUN.test(source)) return JSON.parse(source);
	const quoted = { count: 0 };
	const rewritten = source.replace(LONG_RUN, (run: string, at: number) =>
		quoteRun(run, at, source, quoted),
	);
	if (quoted.count === 0) return JSON.parse(source);
	try {
		return JSON.parse(rewritten) as unknown;
	} catch {
		// digit runs inside strings, or invalid JSON: the exact pass
	}
	if (HAS_SOURCE_TEXT) return parseWithSourceText(source);
	// invalid JSON throws JSON.parse's own error here; valid JSON makes the string-skipping pass linear
	JSON.parse(source);
	return JSON.parse(
		source.replace(STRING_OR_LONG_RUN, (run: string, at: number) =>
			quoteRun(run, at, source, quoted),
		),
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
