/**
 * What an execution that stops at a failed item tells the user about the other items: which the
 * service recorded, which may have been recorded, which were never sent, and how to re-run
 * without sending anything twice. Pure: the router collects the states, this writes the words.
 */

/** What became of one item when the execution stopped. */
export type ItemState =
	/** finished: its records are in the output (for a write: the service recorded it) */
	| 'done'
	/** failed, and the service did not record it (refused, or never reached) */
	| 'notRecorded'
	/** failed after its request was written: the service may have recorded it */
	| 'maybe'
	/** never sent: not started (no item starts after a failure), or refused before sending (bad input) */
	| 'notSent';

/** [0, 1, 3, 4, 5] -> "items 0-1 and 3-5"; [2] -> "item 2". */
export function itemList(indices: number[]): string {
	const sorted = [...indices].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let k = 0; k < sorted.length; ) {
		let end = k;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		ranges.push(end === k ? String(sorted[k]) : `${sorted[k]}-${sorted[end]}`);
		k = end + 1;
	}
	const joined =
		ranges.length > 1
			? `${ranges.slice(0, -1).join(', ')} and ${ranges[ranges.length - 1]}`
			: ranges[0];
	return `${sorted.length === 1 ? 'item' : 'items'} ${joined}`;
}

function were(indices: number[]): string {
	return indices.length === 1 ? 'was' : 'were';
}

function them(indices: number[]): string {
	return indices.length === 1 ? 'it' : 'them';
}

const RERUN =
	'set Settings > On Error to "Continue" or "Continue (using error output)", so that every item gives one output (its result or its error) and the execution does not stop';

/**
 * The report on the other items. `states[i]` for every input item; `failed` is the item whose
 * error is shown. `verb`: the operation's `meta.verb`, undefined for a read.
 */
export function batchReport(states: ItemState[], failed: number, verb: string | undefined): string {
	const of = (state: ItemState) =>
		states.flatMap((s, i) => (s === state && i !== failed ? [i] : []));
	const done = of('done');
	const maybe = of('maybe');
	const notRecorded = of('notRecorded');
	const notSent = of('notSent');
	const total = states.length;
	const parts: string[] = [];
	if (verb === undefined) {
		parts.push(`Item ${failed} of ${total} failed.`);
		if (done.length) parts.push(`${capital(itemList(done))} succeeded.`);
		if (notRecorded.length || maybe.length)
			parts.push(`${capital(itemList([...notRecorded, ...maybe]))} failed too.`);
		if (notSent.length)
			parts.push(
				`${capital(itemList(notSent))} ${were(notSent)} not started (no item starts after a failure).`,
			);
		parts.push(`Reading is safe to repeat: fix item ${failed} and run again, or ${RERUN}.`);
		return parts.join(' ');
	}
	const own = states[failed];
	parts.push(
		`Item ${failed} of ${total} failed${
			own === 'maybe'
				? ` after its request was sent, so it may have been ${verb}`
				: own === 'notSent'
					? '; it was not sent'
					: `; it was not ${verb}`
		}.`,
	);
	parts.push(
		done.length
			? `${capital(itemList(done))} ${were(done)} ${verb} (the service recorded ${them(done)}).`
			: `No other item was ${verb}.`,
	);
	if (maybe.length)
		parts.push(
			`${capital(itemList(maybe))} got no answer after being sent and may have been ${verb}: check ${them(maybe)} in the service before sending ${them(maybe)} again.`,
		);
	if (notRecorded.length)
		parts.push(
			`${capital(itemList(notRecorded))} failed too and ${were(notRecorded)} not ${verb}.`,
		);
	if (notSent.length)
		parts.push(
			`${capital(itemList(notSent))} ${were(notSent)} not sent (no item starts after a failure).`,
		);
	const again = states.flatMap((s, i) => (s !== 'done' && s !== 'maybe' ? [i] : []));
	parts.push(
		`To re-run safely, ${RERUN}, and run only the items that were not ${verb} (${itemList(again)})${
			done.length ? `: running all ${total} again would send ${itemList(done)} a second time` : ''
		}.`,
	);
	return parts.join(' ');
}

function capital(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
