'use strict';
/**
 * The emulator in a process of its own, with one large proposal attachment, for the download
 * memory measurement (measure.js): the emulator's copy of the file and its request log stay out of
 * the measured process. Started with fork(); sends { ready: {...} } once listening; exits when the
 * parent disconnects.
 *
 *   argv: <megabytes> [storage]   ("storage": the file lives on the emulator's second origin)
 */
const crypto = require('node:crypto');
const { startEmulator } = require('../../../emulator');
const files = require('../../../emulator/api-files');
const { mulberry32 } = require('../../../support/prng');

/** Deterministic bytes that do not compress (a photo-like payload). */
function payload(bytes) {
	const random = mulberry32(20_260_501);
	const data = Buffer.allocUnsafe(bytes);
	for (let i = 0; i + 4 <= bytes; i += 4) data.writeUInt32LE(Math.floor(random() * 0x100000000), i);
	for (let i = bytes - (bytes % 4); i < bytes; i++) data[i] = Math.floor(random() * 256);
	return data;
}

async function main() {
	const megabytes = Number(process.argv[2] || 20);
	const storage = process.argv[3] === 'storage';
	const emu = await startEmulator({ accessTokenTtl: 86_400, logBodies: false });
	const data = payload(Math.round(megabytes * 1024 * 1024));
	const rec = await files.addProposalFile(emu, {
		proposalId: 61001,
		name: 'site-survey.mp4',
		mimeType: 'video/mp4',
		data,
		storage,
	});
	const client = emu.fixtures.clients.main;
	const user = emu.fixtures.users.subscriber;
	process.send({
		ready: {
			credential: {
				authServerUrl: emu.authUrl,
				baseUrl: emu.baseUrl,
				clientId: client.clientId,
				clientSecret: client.clientSecret,
				username: user.username,
				password: user.password,
				subsidiaryId: '',
			},
			proposalId: 61001,
			attachmentId: rec.Id,
			size: data.length,
			sha256: crypto.createHash('sha256').update(data).digest('hex'),
		},
	});
	process.on('disconnect', async () => {
		await emu.close();
		process.exit(0);
	});
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
