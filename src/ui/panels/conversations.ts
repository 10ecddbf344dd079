// The Conversations panel: how the requests of a file pair up (a proxy or gateway log holds several conversations,
// interleaved), which conversation the selected request belongs to and what it is compared with.
import './findings.css';
import type { ConversationLink } from '../../core/cache/index.ts';
import type { ConversationWindowAnswer } from '../../worker/handlers/findings.ts';
import { el } from '../dom.ts';
import { numCell, scrollingTable } from '../data-table.ts';
import { formatCount } from '../../render/format.ts';
import type { Panel, PanelContext } from './types.ts';
import { askWithRequests } from './ask.ts';

const MAX_LINKS = 40;
/** Conversations drawn at once, around the selected request's (thousands of rows would cost a second to draw). */
const MAX_ROWS = 100;

const LINK_WORDS: Record<ConversationLink, string> = {
  continues: 'continues',
  edited: 'edits the history of',
  'same-setup': 'starts a new conversation on the setup of',
  new: 'starts a new conversation',
};

function selectedLine(answer: ConversationWindowAnswer, ctx: PanelContext): HTMLElement {
  const r = ctx.request.index;
  const { conversation, link, comparedWith, commonSegments } = answer.selected;
  const parts: (HTMLElement | string)[] = [`Request ${r + 1} is in conversation ${conversation + 1} and ${LINK_WORDS[link]}`];
  if (comparedWith !== null) {
    parts.push(' ');
    parts.push(requestButton(comparedWith, ctx));
    if (commonSegments !== null) parts.push(` (${formatCount(commonSegments)} block${commonSegments === 1 ? '' : 's'} in common from the start)`);
  }
  parts.push('.');
  return el('p', {}, parts);
}

function requestButton(index: number, ctx: PanelContext): HTMLElement {
  return el('button', {
    className: 'link',
    text: `request ${index + 1}`,
    attrs: { type: 'button', ...(index === ctx.request.index && { 'aria-current': 'true' }) },
    on: { click: () => ctx.selectRequest(index) },
  });
}

function conversationTable(answer: ConversationWindowAnswer, ctx: PanelContext): HTMLElement {
  const rows = answer.conversations.map((row, offset) => {
    const conversation = answer.firstConversation + offset;
    const list = row.requests;
    const models = [...new Set(list.map((r) => ctx.view.requests[r]?.model ?? '(no model)'))].join(', ');
    const start = row.startLink === 'same-setup' ? `same setup as ${(row.startComparedWith ?? 0) + 1}` : 'new';
    const links = list.slice(0, MAX_LINKS).map((r) => el('button', {
      className: 'link',
      text: String(r + 1),
      attrs: { type: 'button', ...(r === ctx.request.index && { 'aria-current': 'true' }) },
      on: { click: () => ctx.selectRequest(r) },
    }));
    return el('tr', { className: conversation === answer.selected.conversation ? 'selected' : '' }, [
      numCell(String(conversation + 1)),
      numCell(formatCount(list.length)),
      el('td', { text: start }),
      numCell(formatCount(row.edited)),
      el('td', { className: 'mono', text: models }),
      el('td', {}, [...links.flatMap((link) => [link, ' ']), list.length > MAX_LINKS ? `and ${list.length - MAX_LINKS} more` : null]),
    ]);
  });
  return scrollingTable({
    className: 'data conversations',
    attrs: { 'aria-label': 'Conversations in this input' },
    headers: ['#', 'Requests', 'Starts', 'Edited', 'Models', 'Which'],
    numeric: (i) => i < 2 || i === 3,
    rows,
  });
}

export const conversationsPanel: Panel = {
  id: 'conversations',
  title: 'Conversations',
  readsBodies: true,
  async render(container, ctx) {
    // Only the conversations drawn cross from the worker, with the counts over all of them.
    const answer = await askWithRequests(container, ctx, { empty: 'No requests.', query: 'conversation-window' }, { request: ctx.request.index, rows: MAX_ROWS });
    if (answer === null) return;
    const count = (link: ConversationLink) => answer.linkCounts[link];
    const parts: HTMLElement[] = [
      el('h2', { className: 'section-title', text: `Conversations (${formatCount(answer.count)})` }),
      el('p', {
        text:
          `${formatCount(count('continues'))} request(s) continue an earlier one, ${formatCount(count('edited'))} edit the history of one, ` +
          `${formatCount(count('same-setup'))} start a new conversation on a setup already sent, ${formatCount(count('new'))} start from nothing.`,
      }),
      selectedLine(answer, ctx),
      conversationTable(answer, ctx),
    ];
    if (answer.count > answer.conversations.length) {
      const first = answer.firstConversation;
      parts.push(el('p', { className: 'muted', text: `Showing conversations ${formatCount(first + 1)}–${formatCount(first + answer.conversations.length)} of ${formatCount(answer.count)}, around the selected request's.` }));
    }
    parts.push(
      el('p', {
        className: 'muted',
        text: 'Requests are paired by content only, so a conversation reads the same whether it is alone in the file or interleaved with others.',
      }),
    );
    container.replaceChildren(...parts);
  },
};
