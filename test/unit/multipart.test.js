'use strict';
const { buildMultipart } = require('../../dist/nodes/WorkOrderService/transport/multipart');

test('builds parts with names, file name, content types and exact bytes', () => {
	const file = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]);
	const { contentType, body } = buildMultipart(
		[
			{ name: 'CheckListResponseRequest', value: '{"a":1}', contentType: 'application/json' },
			{ name: 'file', fileName: 'photo "1".jpg', contentType: 'image/jpeg', data: file },
		],
		'BOUNDARY',
	);
	expect(contentType).toBe('multipart/form-data; boundary=BOUNDARY');
	const text = body.toString('latin1');
	expect(text.startsWith('--BOUNDARY\r\nContent-Disposition: form-data; name="CheckListResponseRequest"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n')).toBe(true);
	expect(text).toContain('Content-Disposition: form-data; name="file"; filename="photo \\"1\\".jpg"\r\nContent-Type: image/jpeg\r\n\r\n');
	const start = body.indexOf(Buffer.from('image/jpeg\r\n\r\n')) + 'image/jpeg\r\n\r\n'.length;
	expect(body.subarray(start, start + file.length).equals(file)).toBe(true);
	expect(text.endsWith('\r\n--BOUNDARY--\r\n')).toBe(true);
});

test('non-ASCII file names get an ASCII fallback and the RFC 5987 form', () => {
	const { body } = buildMultipart([{ name: 'file', fileName: 'Prüfung.png', contentType: 'image/png', data: Buffer.from('x') }], 'B');
	const text = body.toString('utf8');
	expect(text).toContain('filename="Pr_fung.png"; filename*=UTF-8\'\'Pr%C3%BCfung.png');
});

test('a name cannot inject header lines', () => {
	const { body } = buildMultipart([{ name: 'file', fileName: 'a\r\nX-Evil: 1.png', contentType: 'image/png', data: Buffer.from('x') }], 'B');
	expect(body.toString('utf8')).not.toMatch(/\r\nX-Evil/);
});

test('random boundaries differ and never occur in the payload', () => {
	const a = buildMultipart([{ name: 'x', value: 'y' }]);
	const b = buildMultipart([{ name: 'x', value: 'y' }]);
	expect(a.contentType).not.toBe(b.contentType);
});
