/**
 * The dashboard's page script (about 12 KB, no dependencies): renders the JSON views with DOM
 * text nodes, follows #/tx/<ticket> routes, reloads on each server-sent `change` event and
 * posts the buttons with the page's CSRF token. Plain ES2017, served as /dashboard/app.js.
 */
import { FAULTS_SCRIPT } from './script-faults.js';
import { OVERVIEW_SCRIPT } from './script-overview.js';

export const DASHBOARD_SCRIPT = String.raw`'use strict';
(function () {
  var meta = document.querySelector('meta[name="dashboard-token"]');
  var TOKEN = meta.getAttribute('content');
  var TOKEN_HEADER = meta.getAttribute('data-header');
  var main = document.getElementById('main');
  var liveEl = document.getElementById('live');
  var noticeEl = document.getElementById('notice');
  var loading = false;
  var again = false;
  var lastRoute = null;
  var lastKey = null;
  var overviewHash = '#/';

  /** Builds an element; strings become text nodes (never HTML). */
  function h(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) {
      var value = attrs[key];
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'onclick') node.addEventListener('click', value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    [].concat(children === undefined ? [] : children).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    });
    return node;
  }

  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function time(ms) {
    if (ms === null || ms === undefined) return '';
    var d = new Date(ms);
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' +
      pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
  }
  function when(ms) { return h('time', { datetime: new Date(ms).toISOString() }, time(ms)); }
  function inTime(ms, now) {
    if (ms <= now) return when(ms);
    var s = Math.round((ms - now) / 1000);
    var text = s < 60 ? s + ' s' : s < 3600 ? Math.round(s / 60) + ' min' : (s / 3600).toFixed(1) + ' h';
    return h('span', {}, [when(ms), h('span', { class: 'sub' }, ' (in ' + text + ')')]);
  }
  var KNOWN = ['APPROVED', 'REJECTED', 'DECLINED', 'EXPIRED', 'PENDING', 'CREATED',
    'delivered', 'failed', 'pending', 'disabled', 'queued', 'error'];
  function badge(status) {
    var cls = KNOWN.indexOf(status) === -1 ? 'other' : status;
    return h('span', { class: 'badge s-' + cls }, status);
  }
  function txLink(t) { return h('a', { href: '#/tx/' + encodeURIComponent(t.ticket), 'data-key': 'tx-' + t.ticket, id: 'ref-' + t.ticket, title: t.reference }, t.reference); }

  function getJson(path) {
    return fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' }).then(function (r) {
      return r.text().then(function (text) {
        // What the view shows, without the clock: equal keys need no re-render.
        return { status: r.status, body: JSON.parse(text), key: r.status + text.replace(/"now":\d+,?/, '') };
      });
    });
  }
  function post(path, body) {
    var headers = { 'content-type': 'application/json' };
    headers[TOKEN_HEADER] = TOKEN;
    return fetch(path, { method: 'POST', headers: headers, body: JSON.stringify(body || {}) }).then(function (r) {
      return r.json().then(function (b) { return { status: r.status, body: b }; });
    });
  }
  function notice(text, isError) {
    noticeEl.textContent = text;
    noticeEl.className = isError ? 'notice error' : 'notice';
    noticeEl.hidden = false;
  }

${OVERVIEW_SCRIPT}
${FAULTS_SCRIPT}
  /** One button per status the supported-status table allows; its name is the status itself. */
  function statusButtons(t, statuses, extra) {
    return statuses.map(function (status) {
      return h('button', Object.assign({ type: 'button', class: 'b-' + status + (extra ? ' small' : ''),
        'data-key': 'confirm-' + t.ticket + '-' + status, onclick: function (e) {
          e.currentTarget.disabled = true;
          act('api/transactions/' + encodeURIComponent(t.ticket) + '/confirm', { status: status }, t.reference);
        } }, extra || {}), status);
    });
  }

  function confirmButtons(t) {
    var buttons = statusButtons(t, t.confirm.statuses);
    return [h('h3', {}, 'Sandbox confirm'),
      t.confirm.note ? h('p', {}, t.confirm.note) : null,
      buttons.length ? h('div', { class: 'row', role: 'group', 'aria-label': 'Confirm with status' }, buttons) : null];
  }

  function detail(t) {
    var facts = [
      ['Ticket', h('span', { class: 'mono' }, t.ticket)],
      ['Merchant', [t.merchant.name + ' ', h('span', { class: 'sub mono' }, t.merchant.username)]],
      ['Type', t.type === 'PAYIN' ? 'PayIn' : 'PayOut'],
      ['Method', t.payment_method],
      ['Message', t.response_message],
      ['Description', t.description],
      ['ipn_url', t.ipn_url ? h('span', { class: 'mono' }, t.ipn_url) : h('span', { class: 'sub' }, 'none: no webhooks unless forwarded')],
      ['Checkout', t.checkout_url ? h('a', { href: t.checkout_url, 'data-key': 'checkout' }, 'Open the hosted checkout page (payment_url)') : null],
      ['Created', when(t.created_at)],
      ['Merchant balance', t.balance_formatted],
    ].filter(function (f) { return f[1] !== null && f[1] !== undefined && f[1] !== ''; });
    var dl = h('dl', {}, [].concat.apply([], facts.map(function (f) { return [h('dt', {}, f[0]), h('dd', {}, f[1])]; })));

    var actions = h('section', { class: 'card', 'aria-labelledby': 'actions-h' }, [
      h('header', {}, h('h2', { id: 'actions-h' }, 'Actions')),
      h('div', { class: 'actions' }, confirmButtons(t).concat([
        h('h3', {}, 'Webhook'),
        h('p', {}, t.can_resend ? 'Delivers the last event (' + t.deliveries[0].event_status + ') again, as a new delivery.'
          : 'No webhook sent yet: one goes out on each status change.'),
        h('div', { class: 'row' }, h('button', { type: 'button', 'data-key': 'resend', disabled: !t.can_resend, onclick: function (e) {
          e.currentTarget.disabled = true;
          act('api/transactions/' + encodeURIComponent(t.ticket) + '/resend', {}, t.reference);
        } }, 'Resend webhook')),
      ])),
    ]);

    var history = h('section', { class: 'card', 'aria-labelledby': 'history-h' }, [
      h('header', {}, h('h2', { id: 'history-h' }, 'Status history')),
      h('table', {}, [h('thead', {}, h('tr', {}, [h('th', {}, 'Time'), h('th', {}, 'Status'), h('th', {}, 'Message')])),
        h('tbody', {}, t.history.map(function (c) {
          return h('tr', {}, [h('td', {}, when(c.at)), h('td', {}, badge(c.status)), h('td', {}, c.message)]);
        }))]),
    ]);

    var attempts = [];
    t.deliveries.forEach(function (d) {
      var label = '#' + d.id + ' ' + d.event_status + (d.resend_of ? ' (resend of #' + d.resend_of + ')' : '');
      if (d.attempts.length === 0) {
        attempts.push(h('tr', {}, [h('td', {}, label), h('td', {}, '—'), h('td', { class: 'wrap mono' }, d.target),
          h('td', {}, badge(d.state === 'disabled' ? 'disabled' : 'queued')), h('td', {}, d.next_attempt_at ? inTime(d.next_attempt_at, t.now) : '')]));
      }
      d.attempts.forEach(function (a, i) {
        var answer = a.error !== null
          ? [badge('error'), h('span', { class: 'answer' }, a.error)]
          : [h('span', { class: 'nowrap' }, [badge(a.status === 200 ? 'delivered' : 'failed'), ' HTTP ' + a.status]),
            a.answer ? h('span', { class: 'answer mono' }, a.answer) : null];
        attempts.push(h('tr', {}, [
          h('td', {}, i === 0 ? label : h('span', { class: 'sub' }, 'retry ' + i)),
          h('td', { class: 'nowrap' }, when(a.at)),
          h('td', { class: 'wrap mono' }, a.url),
          h('td', {}, answer),
          h('td', { class: 'nowrap' }, a.next_attempt_at ? inTime(a.next_attempt_at, t.now) : (a.status === 200 ? '—' : (i === d.attempts.length - 1 && d.state === 'failed' ? 'no more retries' : '—'))),
        ]));
      });
    });
    var deliveries = h('section', { class: 'card', 'aria-labelledby': 'deliveries-h' }, [
      h('header', {}, [h('h2', { id: 'deliveries-h' }, 'Webhook deliveries'), h('span', { class: 'sub' }, 'newest first; retries 5, 15, 30, 60 and 120 min after a failure')]),
      attempts.length ? h('table', {}, [h('thead', {}, h('tr', {}, [h('th', {}, 'Delivery'), h('th', {}, 'Time'),
        h('th', {}, 'Target'), h('th', {}, 'Answer'), h('th', { class: 'nowrap' }, 'Next retry')])), h('tbody', {}, attempts)])
        : h('p', { class: 'empty' }, 'None yet.'),
    ]);

    return [
      h('a', { class: 'back', href: overviewHash, 'data-key': 'back' }, '← All transactions'),
      h('div', { class: 'title' }, [h('h1', { id: 'tx-title', tabindex: '-1' }, t.reference), badge(t.status),
        h('span', { class: 'amount' }, t.amount_formatted)]),
      h('div', { class: 'grid' }, [h('section', { class: 'card', 'aria-label': 'Details' }, [h('header', {}, h('h2', {}, 'Details')), dl]), actions]),
      history,
      deliveries,
    ];
  }

  function act(path, body, reference) {
    post(path, body).then(function (r) {
      var message = r.body && (r.body.message || r.body.error) || ('HTTP ' + r.status);
      notice(reference + ': ' + message, r.status >= 300);
      lastKey = null; // re-render even if nothing changed, to re-enable the clicked button
      load();
    }, function () {
      notice('The simulator did not answer; is it still running?', true);
      lastKey = null;
      load();
    });
  }

  /** Shows the nodes (or runs the function that updates the overview in place), keeping focus. */
  function render(nodes, route) {
    var focused = document.activeElement && document.activeElement.getAttribute('data-key');
    if (typeof nodes === 'function') nodes();
    else main.replaceChildren.apply(main, nodes);
    if (route !== lastRoute) {
      if (lastRoute !== null) {
        var title = document.getElementById('tx-title') || main;
        title.focus();
        noticeEl.hidden = true;
      }
      lastRoute = route;
      return;
    }
    if (focused) {
      var target = main.querySelector('[data-key="' + focused.replace(/"/g, '') + '"]');
      if (target && !target.disabled) target.focus();
    }
  }

  function load() {
    if (loading) { again = true; return; }
    loading = true;
    var hash = location.hash;
    var match = /^#\/tx\/(.+)$/.exec(hash);
    // One route for the overview whatever its query: filtering is no navigation (focus stays).
    var route = match ? hash : 'overview';
    if (!match) overviewHash = hash || '#/';
    var request = match ? getJson('api/transactions/' + match[1]) : getJson(stateUrl(readQuery()));
    request.then(function (r) {
      // Re-render only on a change: a live page that rebuilt itself on every event would swallow
      // a click whose mousedown and mouseup straddle the rebuild.
      if (route === lastRoute && r.key === lastKey) return;
      lastKey = r.key;
      if (r.status !== 200) {
        ov = null;
        render([h('a', { class: 'back', href: overviewHash }, '← All transactions'), h('p', { class: 'notice error' }, r.body.message || 'Not found.')], route);
      } else {
        document.title = (match ? r.body.reference + ' · ' : '') + 'payinout sandbox';
        document.getElementById('environment').textContent = r.body.environment;
        if (match) { ov = null; render(detail(r.body), route); }
        else render(function () { renderOverview(r.body); }, route);
      }
    }, function () {
      liveEl.textContent = 'Simulator unreachable';
      liveEl.className = 'live';
    }).then(function () {
      loading = false;
      if (again) { again = false; load(); }
    });
  }

  window.addEventListener('hashchange', load);
  var events = new EventSource('events');
  events.addEventListener('change', load);
  events.addEventListener('open', function () { liveEl.textContent = 'Live'; liveEl.className = 'live on'; });
  events.addEventListener('error', function () { liveEl.textContent = 'Reconnecting…'; liveEl.className = 'live'; });
  load();
})();
`;
