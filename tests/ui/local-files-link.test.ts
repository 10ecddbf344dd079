// A share link copied while looking at files opened from disk carries only view settings: the start screen says
// the files were opened locally and must be opened again.
import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../src/ui/share.ts';
import { localFilesLinkMessage } from '../../src/ui/start-screen.ts';

const messageFor = (hash: string) => localFilesLinkMessage(parseFragment(hash).state);

describe('a link to files opened from disk', () => {
  it('names the request and panel and says to open the files again', () => {
    expect(messageFor('#request=3&panel=cache')).toBe(
      'This link refers to a view (request 3, the "cache" panel) of files that were opened locally; files opened from disk never travel in a link. ' +
        'Open the same files again (drop them here or choose them) to see it.',
    );
  });

  it('format or model alone still come from a local view', () => {
    expect(messageFor('#format=openai-chat')).toMatch(/^This link refers to a view of files that were opened locally;/);
  });

  it('says nothing for a link that opens its own input, or for no link', () => {
    expect(messageFor('#example=synthetic-openai-chat-tools&request=2&panel=cache')).toBeNull();
    expect(messageFor('#input=AwA&request=1')).toBeNull();
    expect(messageFor('')).toBeNull();
    expect(messageFor('#unrelated=1')).toBeNull();
  });
});
