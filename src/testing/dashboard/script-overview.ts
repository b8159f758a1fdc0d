/**
 * The overview part of the dashboard's page script (spliced into script.ts, sharing its
 * helpers h, when, badge, txLink, statusButtons): merchant balances, then one page of
 * transactions with a search box, a status filter and Previous/Next page buttons. The query
 * lives in the URL hash (#/?q=…&status=…&page=…) and goes to the server, which answers one
 * page of 50; the toolbar is built once per visit, so typing is never interrupted by a live
 * refresh.
 */
export const OVERVIEW_SCRIPT = String.raw`
  var ov = null;
  var searchTimer = null;
  function fmtCount(n) { return Number(n).toLocaleString('en-US'); }

  function readQuery() {
    var p = new URLSearchParams(location.hash.split('?')[1] || '');
    var page = parseInt(p.get('page') || '1', 10);
    return { q: p.get('q') || '', status: p.get('status') || '', page: page > 0 ? page : 1 };
  }
  function queryHash(q) {
    var p = new URLSearchParams();
    if (q.q) p.set('q', q.q);
    if (q.status) p.set('status', q.status);
    if (q.page > 1) p.set('page', String(q.page));
    var s = p.toString();
    return '#/' + (s ? '?' + s : '');
  }
  function stateUrl(q) {
    var p = new URLSearchParams({ q: q.q, status: q.status, page: String(q.page) });
    return 'api/state?' + p.toString();
  }
  /** Search and filter: the same view, so the URL is replaced (no history entry per keystroke). */
  function applyFilters() {
    clearTimeout(searchTimer);
    var q = { q: ov.search.value.trim(), status: ov.status.value, page: 1 };
    history.replaceState(null, '', queryHash(q));
    load();
  }
  function goToPage(page) {
    var q = readQuery();
    q.page = page;
    ov.turned = true;
    location.hash = queryHash(q);
  }

  function buildOverview(statuses) {
    var q = readQuery();
    var search = h('input', { id: 'search', type: 'search', value: q.q, placeholder: 'Reference or ticket',
      autocomplete: 'off', spellcheck: 'false', 'data-key': 'search' });
    search.addEventListener('input', function () { clearTimeout(searchTimer); searchTimer = setTimeout(applyFilters, 250); });
    var status = h('select', { id: 'status-filter', 'data-key': 'status' }, [h('option', { value: '' }, 'All statuses')]
      .concat(statuses.map(function (s) { return h('option', { value: s, selected: s === q.status }, s); })));
    status.addEventListener('change', applyFilters);
    var form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Find transactions' }, [
      // Labels beside (not around) their controls: the accessible names stay exactly Search and Status.
      h('div', { class: 'field grow' }, [h('label', { for: 'search' }, 'Search'), search]),
      h('div', { class: 'field' }, [h('label', { for: 'status-filter' }, 'Status'), status]),
    ]);
    form.addEventListener('submit', function (e) { e.preventDefault(); applyFilters(); });
    var prev = h('button', { type: 'button', class: 'pager-prev', 'data-key': 'prev', onclick: function () { goToPage(ov.page - 1); } },
      [h('span', { 'aria-hidden': 'true' }, '← '), 'Previous page']);
    var next = h('button', { type: 'button', class: 'pager-next', 'data-key': 'next', onclick: function () { goToPage(ov.page + 1); } },
      ['Next page', h('span', { 'aria-hidden': 'true' }, ' →')]);
    var position = h('span', { class: 'position', 'aria-live': 'polite' });
    var parts = {
      cards: h('div', { class: 'merchants' }),
      retention: h('p', { class: 'retention', hidden: true }),
      count: h('span', { class: 'sub' }),
      rows: h('div', { class: 'rows' }),
      pager: h('nav', { class: 'pager', 'aria-label': 'Pages' }, [prev, position, next]),
      search: search, status: status, prev: prev, next: next, position: position, page: 1,
    };
    parts.panel = h('section', { class: 'panel', 'aria-labelledby': 'list-h' }, [
      h('header', {}, [h('h2', { id: 'list-h' }, 'Transactions'), parts.count, form]),
      parts.retention, parts.rows, parts.pager]);
    parts.faults = buildFaultPanel();
    parts.root = [h('h1', { class: 'page-title' }, 'Merchants and their transactions'), parts.cards, parts.panel, parts.faults.panel];
    return parts;
  }

  function merchantCard(m) {
    return h('section', { class: 'card merchant', 'aria-label': m.name }, h('header', {}, [
      h('h2', {}, m.name),
      h('span', { class: 'sub mono' }, m.username + ' · ' + m.country + ' · ' + m.currency),
      h('div', { class: 'balance' }, [h('b', {}, m.balance_formatted),
        h('small', {}, 'balance · ' + fmtCount(m.total) + (m.total === 1 ? ' transaction' : ' transactions'))]),
    ]));
  }

  /** Today: the time alone; before: the date and minutes. The full time is the element's title. */
  function shortWhen(ms, now) {
    var full = time(ms);
    var sameDay = full.slice(0, 10) === time(now).slice(0, 10);
    return h('time', { datetime: new Date(ms).toISOString(), title: full }, sameDay ? full.slice(11) : full.slice(0, 16));
  }

  function listRow(t, now) {
    return h('tr', {}, [
      h('td', { class: 'c-created nowrap' }, shortWhen(t.created_at, now)),
      h('td', { class: 'c-ref' }, h('span', { class: 'ref' }, txLink(t))),
      h('td', { class: 'c-merchant mono' }, t.merchant),
      h('td', { class: 'c-method nowrap' }, (t.type === 'PAYIN' ? 'PayIn' : 'PayOut') + ' · ' + t.payment_method),
      h('td', { class: 'c-amount num' }, t.amount_formatted),
      h('td', { class: 'c-status' }, badge(t.status)),
      h('td', { class: 'c-actions quick' }, t.confirm_statuses.length
        ? statusButtons(t, t.confirm_statuses, { 'aria-describedby': 'ref-' + t.ticket })
        : h('span', { class: 'sub', title: 'Open the transaction to see why' }, '—')),
    ]);
  }

  function emptyText(list) {
    if (list.total === 0) return 'No transactions yet. Create a PayIn or PayOut with a merchant\u2019s credentials; it appears here at once.';
    var what = [];
    if (list.search) what.push('\u201c' + list.search + '\u201d');
    if (list.status) what.push('status ' + list.status);
    return 'No transaction matches ' + what.join(' with ') + '.';
  }

  function renderOverview(state) {
    if (!ov || !main.contains(ov.pager)) {
      ov = buildOverview(state.statuses);
      main.replaceChildren.apply(main, ov.root);
    }
    var list = state.transactions;
    ov.page = list.page;
    ov.cards.replaceChildren.apply(ov.cards, state.merchants.map(merchantCard));
    renderFaults(ov.faults, state.faults);
    ov.count.textContent = fmtCount(list.total) + ' in all';
    var r = state.retention;
    ov.retention.hidden = r.max === null;
    if (r.max !== null) ov.retention.textContent = 'Retention: at most ' + fmtCount(r.max) + ' transactions; ' +
      fmtCount(r.dropped) + ' dropped so far (the oldest final ones; pending ones are always kept).';
    ov.rows.replaceChildren(list.rows.length === 0 ? h('p', { class: 'empty' }, emptyText(list)) : h('table', { class: 'list' }, [
      h('thead', {}, h('tr', {}, [h('th', {}, 'Created'), h('th', {}, 'Reference'), h('th', {}, 'Merchant'),
        h('th', {}, 'Method'), h('th', { class: 'num' }, 'Amount'), h('th', {}, 'Status'), h('th', {}, 'Confirm')])),
      h('tbody', {}, list.rows.map(function (t) { return listRow(t, state.now); }))]));
    ov.position.textContent = list.matching === 0 ? 'No results'
      : fmtCount(list.first) + '\u2013' + fmtCount(list.first + list.rows.length - 1) + ' of ' + fmtCount(list.matching) +
        ' \u00b7 page ' + fmtCount(list.page) + ' of ' + fmtCount(list.pages);
    ov.prev.disabled = list.page <= 1;
    ov.next.disabled = list.page >= list.pages;
    // A new page starts at its first row: bring the list's top back into view if it scrolled away.
    if (ov.turned) {
      ov.turned = false;
      if (ov.panel.getBoundingClientRect().top < 0) ov.panel.scrollIntoView();
    }
  }
`;
