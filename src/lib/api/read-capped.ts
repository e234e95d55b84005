/**
 * Reads a reply's body up to `maxBytes`, cancelling the download as soon as it is exceeded (a
 * declared Content-Length beyond it is refused before a byte is read): `tooLarge` makes the error
 * thrown then. No imports, so the full-text worker reads its pages with it too (api/page.ts).
 */
export async function readCapped(
	response: Response,
	maxBytes: number,
	tooLarge: () => Error
): Promise<Uint8Array<ArrayBuffer>> {
	const declared = Number(response.headers.get('Content-Length') ?? '');
	if (Number.isFinite(declared) && declared > maxBytes) {
		await response.body?.cancel().catch(() => undefined);
		throw tooLarge();
	}
	if (!response.body) {
		const whole = new Uint8Array(await response.arrayBuffer());
		if (whole.byteLength > maxBytes) throw tooLarge();
		return whole;
	}
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > maxBytes) {
			await reader.cancel().catch(() => undefined);
			throw tooLarge();
		}
		chunks.push(value);
	}
	const out = new Uint8Array(size);
	let at = 0;
	for (const chunk of chunks) {
		out.set(chunk, at);
		at += chunk.byteLength;
	}
	return out;
}
