'use strict';
const { buildMultipart } = require('../../dist/nodes/WorkOrderService/transport/multipart');

test('builds parts with names, file name, content types and exact bytes', async () => {
	const file = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]);
	const { contentType, body } = await buildMultipart(
		[
			{ name: 'CheckListResponseRequest', value: '{"a":1}', contentType: 'application/json' },
			{ name: 'file', fileName: 'photo "1".jpg', contentType: 'image/jpeg', data: file },
		],
		'BOUNDARY',
	);
	expect(contentType).toBe('multipart/form-data; boundary=BOUNDARY');
	const text = body.toString('latin1');
	expect(
		text.startsWith(
			'--BOUNDARY\r\nContent-Disposition: form-data; name="CheckListResponseRequest"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n',
		),
	).toBe(true);
	expect(text).toContain(
		'Content-Disposition: form-data; name="file"; filename="photo \\"1\\".jpg"\r\nContent-Type: image/jpeg\r\n\r\n',
	);
	const start = body.indexOf(Buffer.from('image/jpeg\r\n\r\n')) + 'image/jpeg\r\n\r\n'.length;
	expect(body.subarray(start, start + file.length).equals(file)).toBe(true);
	expect(text.endsWith('\r\n--BOUNDARY--\r\n')).toBe(true);
});

test('non-ASCII file names get an ASCII fallback and the RFC 5987 form', async () => {
	const { body } = await buildMultipart(
		[{ name: 'file', fileName: 'Prüfung.png', contentType: 'image/png', data: Buffer.from('x') }],
		'B',
	);
	const text = body.toString('utf8');
	expect(text).toContain('filename="Pr_fung.png"; filename*=UTF-8\'\'Pr%C3%BCfung.png');
});

test('a name cannot inject header lines', async () => {
	const { body } = await buildMultipart(
		[
			{
				name: 'file',
				fileName: 'a\r\nX-Evil: 1.png',
				contentType: 'image/png',
				data: Buffer.from('x'),
			},
		],
		'B',
	);
	expect(body.toString('utf8')).not.toMatch(/\r\nX-Evil/);
});

test('random boundaries differ', async () => {
	const a = await buildMultipart([{ name: 'x', value: 'y' }]);
	const b = await buildMultipart([{ name: 'x', value: 'y' }]);
	expect(a.contentType).not.toBe(b.contentType);
});

test('a file source is written straight into the body, once, at its exact size', async () => {
	const bytes = Buffer.from('0123456789abcdef', 'utf8');
	let calls = 0;
	const source = {
		size: bytes.length,
		copyTo: async (target, offset) => {
			calls++;
			return bytes.copy(target, offset);
		},
	};
	const { body } = await buildMultipart(
		[{ name: 'file', fileName: 'f.bin', contentType: 'application/octet-stream', data: source }],
		'B',
	);
	expect(calls).toBe(1);
	const text = body.toString('utf8');
	expect(text).toBe(
		'--B\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n0123456789abcdef\r\n--B--\r\n',
	);
	expect(body.length).toBe(Buffer.byteLength(text));
});

test('a file that is shorter than announced is refused, not sent truncated', async () => {
	const source = {
		size: 10,
		copyTo: async (target, offset) => Buffer.from('short').copy(target, offset),
	};
	await expect(
		buildMultipart([{ name: 'file', fileName: 'f', contentType: 'image/png', data: source }]),
	).rejects.toThrow(/5 of 10 bytes/);
});
