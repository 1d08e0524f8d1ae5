// Sequence diagrams (src/report/mermaid.ts). Each diagram is parsed by mermaid itself
// (mermaid.parse, the parser behind GitHub's Markdown rendering), and its lines are compared with
// the trace they draw, read step by step from the model.
import { describe, expect, it } from 'vitest';
import mermaid from 'mermaid';
import { checkVariant, type Violation } from 'modelcheck';
import { mermaidText, violationToMermaid, violationToMermaidMarkdown } from '../../src/report/mermaid.ts';
import { lock } from '../fixtures/liveness.ts';
import { finalizerRace } from '../fixtures/k8s/tiny.ts';

async function expectParses(source: string): Promise<void> {
  await expect(mermaid.parse(source)).resolves.toMatchObject({ diagramType: 'sequence' });
}

describe('sequence diagrams', () => {
  it('draws each request as an arrow, its answer as a return arrow, and a cache catch-up as a note', async () => {
    // The finalizer race of test/k8s/kubernetes.test.ts, actor order removeFinalizers then
    // DELETE: the controller puts its finalizer back before the DELETE, so the DELETE only marks
    // the object, and the controller, seeing it deleting, leaves it (9 states).
    const r = checkVariant(finalizerRace(['removeFinalizers', 'delete']));
    const x = r.violations.find((v) => v.property === 'SettledObjectGone')!;
    const diagram = violationToMermaid(x);
    expect(diagram.split('\n')).toEqual([
      'sequenceDiagram',
      '  participant p_actor as actor',
      '  participant p_finalizerController as finalizerController',
      '  participant p_main_API_server as main API server',
      '  Note over p_actor: 1. initial state',
      '  p_actor->>p_main_API_server: 2. PATCH Thing/o (merge) {"metadata":{"finalizers":[]}}',
      '  p_main_API_server-->>p_actor: 200 OK',
      '  Note over p_finalizerController: 3. manager cache takes in MODIFIED Thing/o#59; queues Thing/o for finalizerController',
      '  Note over p_finalizerController: 4. reconcile(Thing/o)',
      '  p_finalizerController->>p_main_API_server: 5. PATCH Thing/o (merge) {"metadata":{"finalizers":["example.com/cleanup"]}}',
      '  p_main_API_server-->>p_finalizerController: 200 OK',
      '  p_actor->>p_main_API_server: 6. DELETE Thing/o',
      '  p_main_API_server-->>p_actor: 200 OK: deletionTimestamp set, kept for its finalizers [example.com/cleanup]',
      '  Note over p_finalizerController: 7. manager cache takes in MODIFIED Thing/o#59; queues Thing/o for finalizerController',
      '  Note over p_finalizerController: 8. manager cache takes in MODIFIED Thing/o#59; queues Thing/o for finalizerController',
      '  Note over p_finalizerController: 9. reconcile(Thing/o)',
      '  Note over p_finalizerController: SettledObjectGone is violated',
    ]);
    await expectParses(diagram);
  });

  it("puts a lasso's cycle in a loop block, closed by the step back to its first state", async () => {
    const x = checkVariant(lock('weak')).violations[0];
    const diagram = violationToMermaid(x);
    expect(diagram.split('\n')).toEqual([
      'sequenceDiagram',
      '  participant p_request as request',
      '  participant p_acquire as acquire',
      '  participant p_release as release',
      '  Note over p_request: 1. initial state',
      '  Note over p_request: 2. request(1)',
      '  loop states 2 to 4 repeat for ever',
      '    Note over p_request: 3. request(0)',
      '    Note over p_acquire: 4. acquire(0)',
      '    Note over p_release: 5. release(0)',
      '    Note over p_release: back to state 2',
      '  end',
      '  Note over p_release: WaitingProcess1Enters is violated',
    ]);
    await expectParses(diagram);
  });

  it('draws a stuttering lasso as a loop over its last state', async () => {
    const x = checkVariant(lock('none')).violations[0];
    const diagram = violationToMermaid(x);
    expect(diagram).toContain(
      '  loop states 2 to 2 repeat for ever\n    Note over p_request: state 2 repeats for ever (stuttering)\n  end',
    );
    await expectParses(diagram);
  });

  it('crosses the return arrow of a failed request, and escapes what Mermaid would misread', async () => {
    const x: Violation = {
      property: 'P',
      kind: 'invariant',
      statement: 'never',
      trace: [
        { action: null, state: 0 },
        {
          action: 'ctl.patch(a)',
          state: 1,
          events: [
            {
              kind: 'request',
              to: 'api',
              request: 'PATCH a #1; {"x":1}',
              answer: 'a is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted',
              ok: false,
            },
          ],
        },
      ],
    };
    const diagram = violationToMermaid(x);
    expect(diagram).toContain(
      '  p_ctl->>p_api: 2. PATCH a #35;1#59; {"x":1}\n  p_api--xp_ctl: a is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted',
    );
    await expectParses(diagram);
    expect(mermaidText('a;b#c\nd')).toBe('a#59;b#35;c d');
  });

  it('wraps the diagram in a Markdown page with the statement, as GitHub renders it', () => {
    const r = checkVariant(lock('weak'));
    const page = violationToMermaidMarkdown(r, r.violations[0]);
    expect(page.split('\n').slice(0, 5)).toEqual([
      '# (model), variant lock-weak: WaitingProcess1Enters is violated',
      '',
      '> Whenever process 1 waits for the lock, it eventually holds it.',
      '',
      '```mermaid',
    ]);
    expect(page.endsWith('\n```\n')).toBe(true);
  });
});
