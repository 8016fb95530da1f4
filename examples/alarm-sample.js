// @ts-check
'use strict';
/**
 * The request "another system" sends to the example workflow 08-alarm-to-work-order.json: a
 * building management system posts an alarm as multipart/form-data, its fields and a trend chart
 * of the alarm (a PNG) as the file part `snapshot`. Used by the demo (examples/run-demo.js), the
 * real-n8n e2e (test/e2e/alarm-workflow.js) and the README's curl example; nothing else.
 *
 *   curl -X POST http://localhost:5678/webhook/bms-alarm \
 *     -F alarmId=A-20417 -F storeId=S501 -F trade=HVAC -F severity=critical \
 *     -F "message=Rooftop unit 1: supply air 88F, compressor lockout" -F "problemCode=NO COOLING" \
 *     -F raisedAt=2026-05-01T09:30:00-04:00 -F snapshot=@trend.png
 */

/** The webhook's path (Webhook node, production URL `<n8n>/webhook/bms-alarm`). */
const ALARM_PATH = 'bms-alarm';

/** A 1x1 PNG: the trend chart stand-in. */
const SNAPSHOT = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);

/** The alarm's fields; `raisedAt` is when the alarm was raised (now, with its offset). */
function alarmFields(now = new Date()) {
	return {
		alarmId: 'A-20417',
		storeId: 'S501',
		trade: 'HVAC',
		severity: 'critical',
		message: 'Rooftop unit 1: supply air 88F, compressor lockout',
		problemCode: 'NO COOLING',
		raisedAt: now.toISOString(),
	};
}

/** The multipart body (fetch sets its Content-Type with the boundary). @param {Record<string, string>} [fields] */
function alarmForm(fields = alarmFields()) {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	form.append('snapshot', new Blob([SNAPSHOT], { type: 'image/png' }), 'rtu1-trend.png');
	return form;
}

module.exports = { ALARM_PATH, SNAPSHOT, alarmFields, alarmForm };
