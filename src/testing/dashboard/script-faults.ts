/**
 * The fault-rule panel of the dashboard's overview (spliced into script.ts, sharing its helpers
 * h, post, notice, load and fmtCount): the rules in force with their matched and fired counts, a
 * Remove button each, and a form taking one rule as the CLI's SPEC
 * (OPERATION:KIND[:key=value,...]). The form is built once per visit, so a live refresh never
 * interrupts typing; only the table is redrawn.
 */
export const FAULTS_SCRIPT = `
  var FAULT_OPTION_KEYS = ['rate', 'times', 'merchant', 'status', 'retryAfter', 'ms'];

  function buildFaultPanel() {
    var input = h('input', { id: 'fault-spec', type: 'text', autocomplete: 'off', spellcheck: 'false', 'data-key': 'fault-spec',
      placeholder: 'payout.create:drop-after-commit:rate=0.05', 'aria-describedby': 'fault-help' });
    var form = h('form', { class: 'filters fault-form', 'aria-label': 'Add a fault rule' }, [
      h('div', { class: 'field grow' }, [h('label', { for: 'fault-spec' }, 'Fault rule'), input]),
      h('button', { type: 'submit', 'data-key': 'fault-add' }, 'Add rule'),
    ]);
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var spec = input.value.trim();
      if (!spec) return;
      post('api/faults', { spec: spec }).then(function (r) {
        if (r.status === 200) { input.value = ''; notice('Fault rule ' + r.body.id + ' added.', false); }
        else notice((r.body && r.body.message) || ('HTTP ' + r.status), true);
        lastKey = null;
        load();
      }, function () { notice('The simulator did not answer; is it still running?', true); });
    });
    var seed = h('span', { class: 'sub' });
    var rows = h('div', { class: 'rows' });
    var help = h('p', { id: 'fault-help', class: 'sub fault-help' },
      'OPERATION:KIND[:key=value,...] — e.g. *:status:status=503,rate=0.01 or webhook:duplicate:rate=0.2');
    var panel = h('section', { class: 'panel faults', 'aria-labelledby': 'faults-h' }, [
      h('header', {}, [h('h2', { id: 'faults-h' }, 'Fault rules'), seed, form]), help, rows]);
    return { panel: panel, rows: rows, seed: seed };
  }

  function faultOptions(rule) {
    return FAULT_OPTION_KEYS.filter(function (k) { return rule[k] !== undefined; })
      .map(function (k) { return k + '=' + rule[k]; }).join(', ') || '—';
  }

  function removeFault(rule, button) {
    button.disabled = true;
    post('api/faults/' + encodeURIComponent(rule.id) + '/remove', {}).then(function (r) {
      notice(r.status === 200 ? 'Fault rule ' + rule.id + ' removed.' : ((r.body && r.body.message) || 'HTTP ' + r.status), r.status !== 200);
      lastKey = null;
      load();
    }, function () { notice('The simulator did not answer; is it still running?', true); });
  }

  function renderFaults(parts, faults) {
    parts.seed.textContent = 'seed ' + faults.seed;
    parts.rows.replaceChildren(faults.rules.length === 0
      ? h('p', { class: 'empty' }, 'No fault rules: every request and webhook is answered as the service would.')
      : h('div', { class: 'fault-scroll' }, h('table', { class: 'fault-list' }, [
        h('thead', {}, h('tr', {}, [h('th', {}, 'Rule'), h('th', {}, 'Operation'), h('th', {}, 'Kind'), h('th', {}, 'Options'),
          h('th', { class: 'num' }, 'Matched'), h('th', { class: 'num' }, 'Fired'), h('th', {}, '')])),
        h('tbody', {}, faults.rules.map(function (rule) {
          return h('tr', {}, [
            h('td', { class: 'mono' }, rule.id), h('td', { class: 'mono' }, rule.operation), h('td', {}, rule.kind),
            h('td', { class: 'mono' }, faultOptions(rule)),
            h('td', { class: 'num', 'data-label': 'matched' }, fmtCount(rule.matched)),
            h('td', { class: 'num', 'data-label': 'fired' }, fmtCount(rule.fired)),
            h('td', {}, h('button', { type: 'button', 'data-key': 'fault-remove-' + rule.id, 'aria-label': 'Remove ' + rule.id,
              onclick: function (e) { removeFault(rule, e.currentTarget); } }, 'Remove')),
          ]);
        }))])));
  }
`;
