/**
 * A feed the test bed's tt-rss really fetches: written outside the repository and symlinked into
 * the folder feeds.test serves only while tt-rss reads it (the test bed's seed hash counts regular
 * files only), as the alerts and duplicates specs do.
 */
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TtrssClient } from '../../../src/lib/api';
import { testbed, testbedCondition } from '../../support/testbed';

export interface FeedItem {
	title: string;
	guid: string;
	date: Date;
	body?: string;
}

export function feedXml(title: string, items: readonly FeedItem[]): string {
	const body = items
		.map(
			(item) => `<item><title>${item.title}</title><guid isPermaLink="false">${item.guid}</guid>
<link>http://${testbed.feedsHost}/${item.guid}</link><pubDate>${item.date.toUTCString()}</pubDate>
<description><![CDATA[<p>${item.body ?? item.title}</p>]]></description></item>`
		)
		.join('\n');
	return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${title}</title>
<link>http://${testbed.feedsHost}/</link><description>${title}</description>
${body}</channel></rss>`;
}

export class ServedFeed {
	readonly #dir: string;
	readonly #name: string;
	readonly #link: string;

	constructor(name: string) {
		this.#name = name;
		this.#dir = `/tmp/ttrss-e2e-${name.replace(/\W+/g, '-')}`;
		this.#link = fileURLToPath(new URL(`../../../testbed/fixtures/feeds/${name}`, import.meta.url));
	}

	#write(xml: string): void {
		mkdirSync(this.#dir, { recursive: true });
		chmodSync(this.#dir, 0o755);
		writeFileSync(`${this.#dir}/${this.#name}`, xml);
		chmodSync(`${this.#dir}/${this.#name}`, 0o644);
	}

	/** Its address on feeds.test. */
	get url(): string {
		return `http://${testbed.feedsHost}/feeds/${this.#name}`;
	}

	/** Served from now until `remove()` (for a fetch the test does not run itself). */
	serve(content: string): void {
		this.#write(content);
		rmSync(this.#link, { force: true });
		symlinkSync(`${this.#dir}/${this.#name}`, this.#link);
	}

	async #served<T>(xml: string, run: () => T | Promise<T>): Promise<T> {
		this.serve(xml);
		try {
			return await run();
		} finally {
			rmSync(this.#link, { force: true });
		}
	}

	/** Subscribes the test bed's user (another device) and has tt-rss fetch `xml` now. */
	subscribe(client: TtrssClient, xml: string, categoryId?: number): Promise<number> {
		return this.#served(xml, async () => {
			const result = await client.subscribeToFeed({
				feedUrl: this.url,
				...(categoryId !== undefined ? { categoryId } : {})
			});
			if (result.feedId === undefined)
				throw new Error(`subscribe failed: ${JSON.stringify(result)}`);
			testbedCondition('update-feed', String(result.feedId));
			return result.feedId;
		});
	}

	/** tt-rss fetches the feed again, now serving `xml` (it keeps the items it had). */
	fetch(feedId: number, xml: string): Promise<void> {
		return this.#served(xml, () => testbedCondition('update-feed', String(feedId)));
	}

	remove(): void {
		rmSync(this.#link, { force: true });
		rmSync(this.#dir, { recursive: true, force: true });
	}
}
