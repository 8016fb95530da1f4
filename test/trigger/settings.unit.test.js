'use strict';
/**
 * The polling trigger's settings (trigger/settings.ts), without HTTP: each parameter's check and
 * the message that names it, the Start Date's instant in the workflow's time zone, and the clauses
 * every poll sends.
 */
const path = require('path');
const { NodeOperationError } = require('n8n-workflow');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const settings = require(path.join(DIST, 'settings'));

const NODE = {
	id: 'n',
	name: 'Work Order Service Trigger',
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** The error `fn` throws (fails the test when it throws none). */
function errorOf(fn) {
	try {
		fn();
	} catch (error) {
		return error;
	}
	throw new Error('no error thrown');
}

describe('event', () => {
	test.each(['workOrderCreated', 'workOrderUpdated', 'workOrderStatusChanged'])(
		'%s is an event',
		(event) => {
			expect(settings.checkEvent(NODE, event)).toBe(event);
		},
	);

	test.each([['workOrderDeleted'], [''], [undefined], [42]])(
		'%p is refused, naming the parameter',
		(event) => {
			const error = errorOf(() => settings.checkEvent(NODE, event));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(`Unknown event "${String(event)}" (parameter "event")`);
			expect(error.description).toMatch(
				/Work Order Created, Work Order Updated, Work Order Status Changed, Invoice Created, Invoice Updated or Invoice Status Changed/,
			);
		},
	);
});

describe('Start Date', () => {
	test('as text: a Date or a Luxon DateTime as ISO, text trimmed, nothing as empty', () => {
		expect(settings.startDateText(undefined)).toBe('');
		expect(settings.startDateText(null)).toBe('');
		expect(settings.startDateText(new Date('2026-03-29T06:00:00Z'))).toBe(
			'2026-03-29T06:00:00.000Z',
		);
		expect(settings.startDateText(new Date('nonsense'))).toBe('Invalid Date');
		expect(settings.startDateText({ toISO: () => '2026-03-29T08:00:00.000+02:00' })).toBe(
			'2026-03-29T08:00:00.000+02:00',
		);
		expect(settings.startDateText('  2026-03-29T08:00:00 ')).toBe('2026-03-29T08:00:00');
	});

	test('with an offset: that instant; the workflow time zone is not asked', () => {
		const zone = jest.fn(() => 'Europe/Berlin');
		expect(settings.startInstant(NODE, '2026-03-29T06:00:00Z', zone)).toBe(
			Date.parse('2026-03-29T06:00:00Z'),
		);
		expect(settings.startInstant(NODE, '2026-03-29T08:00:00+02:00', zone)).toBe(
			Date.parse('2026-03-29T06:00:00Z'),
		);
		expect(zone).not.toHaveBeenCalled();
	});

	test('without an offset: the wall time in the workflow time zone (UTC when the zone is unknown or missing)', () => {
		expect(settings.startInstant(NODE, '2026-03-29T08:00:00', () => 'Europe/Berlin')).toBe(
			Date.parse('2026-03-29T06:00:00Z'),
		);
		expect(settings.startInstant(NODE, '2026-01-10T08:00:00', () => 'Europe/Berlin')).toBe(
			Date.parse('2026-01-10T07:00:00Z'),
		);
		expect(settings.startInstant(NODE, '2026-03-29T08:00:00', () => 'Mars/Olympus')).toBe(
			Date.parse('2026-03-29T08:00:00Z'),
		);
		expect(settings.startInstant(NODE, '2026-03-29T08:00:00', () => undefined)).toBe(
			Date.parse('2026-03-29T08:00:00Z'),
		);
	});

	test('none: no instant', () => {
		expect(settings.startInstant(NODE, '', () => 'UTC')).toBeUndefined();
	});

	test.each(['yesterday', '2026-02-30T00:00:00Z', 'Invalid Date'])(
		'%p is refused, naming the option',
		(text) => {
			const error = errorOf(() => settings.startInstant(NODE, text, () => 'UTC'));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				`Invalid Start Date (parameter "options.startDate"): "${text}" is not a date-time`,
			);
			expect(error.description).toMatch(/ISO 8601/);
		},
	);
});

describe('options', () => {
	test('Lookback Window: seconds from 0 to 3600 in ms, 60 s by default', () => {
		expect(settings.lookbackMs(NODE, undefined)).toBe(60_000);
		expect(settings.lookbackMs(NODE, 0)).toBe(0);
		expect(settings.lookbackMs(NODE, 3600)).toBe(3_600_000);
		expect(settings.lookbackMs(NODE, 1.5)).toBe(1500);
		for (const bad of [-1, 3601, 'soon', Number.NaN]) {
			const error = errorOf(() => settings.lookbackMs(NODE, bad));
			expect(error.message).toBe(
				`Invalid Lookback Window (parameter "options.lookbackSeconds"): ${String(bad)}`,
			);
			expect(error.description).toBe('Give a number of seconds from 0 to 3600.');
		}
	});

	test('Unknown Previous Status: emit by default, or ignore; nothing else', () => {
		expect(settings.unknownStatusHandling(NODE, undefined)).toBe('emit');
		expect(settings.unknownStatusHandling(NODE, 'ignore')).toBe('ignore');
		const error = errorOf(() => settings.unknownStatusHandling(NODE, 'maybe'));
		expect(error.message).toBe(
			'Invalid Unknown Previous Status (parameter "options.unknownPreviousStatus"): "maybe"',
		);
	});

	test('Max Work Orders Remembered: a whole number of at least 1,000; 100,000 by default', () => {
		expect(settings.memoryLimit(NODE, undefined)).toBe(100_000);
		expect(settings.memoryLimit(NODE, 1000)).toBe(1000);
		for (const bad of [999, 1000.5, 'many']) {
			const error = errorOf(() => settings.memoryLimit(NODE, bad));
			expect(error.message).toBe(
				`Invalid Max Work Orders Remembered (parameter "options.maxRemembered"): ${String(bad)}`,
			);
		}
	});
});

describe('poll clauses', () => {
	const filters = {
		clauses: ['LocationId eq 501'],
		statuses: ['open'],
		statusClause: "Status/Primary eq 'OPEN'",
	};

	test('Created and Updated send the status clause; Status Changed compares statuses itself', () => {
		expect(settings.pollClauses('workOrderUpdated', filters)).toEqual([
			'LocationId eq 501',
			"Status/Primary eq 'OPEN'",
		]);
		expect(settings.pollClauses('workOrderCreated', filters)).toEqual([
			'LocationId eq 501',
			"Status/Primary eq 'OPEN'",
		]);
		expect(settings.pollClauses('workOrderStatusChanged', filters)).toEqual(['LocationId eq 501']);
		expect(settings.pollClauses('workOrderUpdated', { ...filters, statusClause: '' })).toEqual([
			'LocationId eq 501',
		]);
	});

	test('Fetch Test Event sends every clause, the status clause too, whatever the event', () => {
		expect(settings.allClauses(filters)).toEqual(['LocationId eq 501', "Status/Primary eq 'OPEN'"]);
		expect(settings.allClauses({ ...filters, statusClause: '' })).toEqual(['LocationId eq 501']);
	});
});

describe('readSettings', () => {
	function ctx(parameters, zone = 'Europe/Berlin') {
		return {
			getNode: () => NODE,
			getNodeParameter: (name, fallback) => (name in parameters ? parameters[name] : fallback),
			getTimezone: () => zone,
		};
	}

	test('all parameters together: the date field by event, Status Changed without a Start Date', () => {
		const created = settings.readSettings(
			ctx({
				event: 'workOrderCreated',
				options: { startDate: '2026-03-29T08:00:00', lookbackSeconds: 30 },
			}),
		);
		expect(created).toMatchObject({
			event: 'workOrderCreated',
			field: 'CallDate',
			startDate: '2026-03-29T08:00:00',
			startMs: Date.parse('2026-03-29T06:00:00Z'),
			lookbackMs: 30_000,
		});
		const status = settings.readSettings(
			ctx({ event: 'workOrderStatusChanged', options: { startDate: '2026-03-29T08:00:00' } }),
		);
		expect(status).toMatchObject({
			field: 'UpdatedDate',
			startDate: '',
			startMs: undefined,
			unknownStatus: 'emit',
			memoryLimit: 100_000,
		});
	});

	test("the first wrong parameter in the editor's order is the one reported", () => {
		const error = errorOf(() =>
			settings.readSettings(
				ctx({ event: 'workOrderUpdated', options: { startDate: 'never', lookbackSeconds: -5 } }),
			),
		);
		expect(error.message).toMatch(/^Invalid Start Date/);
	});
});
