#!/usr/bin/env node
'use strict';
/**
 * Invoice payments in bulk (issue 33), standalone: case 10 of bench/run.js, whose scenario and
 * figures are in bench/cases/invoice-payments.js (1,000 payments in one execution at the sandbox's
 * 40 requests a minute, with and without Skip Payments Already Recorded; a half-refused batch and
 * its re-run). Prints each run's figures and exits 1 when a target is missed.
 *
 *   npm run build && node bench/invoice-payments.js [--rate=40] [--count=1000]
 */
require('./cases/invoice-payments')
	.main()
	.catch((e) => {
		console.error(e);
		process.exit(1);
	});
