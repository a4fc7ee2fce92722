import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/svelte';
import type { Report } from '../backend/types';
import { groupReports } from './editor.svelte';
import Reports from './Reports.svelte';
import ReportList from '../review/ReportList.svelte';

const at = '2026-11-30T00:00:00Z';
const report = (role: Report['role'], iteration: number, body: string, verdict?: Report['verdict']): Report => ({ role, iteration, round: 1, body, created_at: at, ...(verdict ? { verdict } : {}) });

describe('Reports (task pane)', () => {
  it('heads each group "Planner · iteration 1", spaced, and reads the plan as a checklist', () => {
    const { container } = render(Reports, { groups: groupReports([report('planner', 1, '## Plan\n\n1. Write the test\n2. Fix it'), report('planner', 2, 'Again.')]) });
    expect([...container.querySelectorAll('h4')].map((h) => h.textContent)).toEqual(['Planner · iteration 1', 'Planner · iteration 2']);
    expect(container.querySelector('h5')?.textContent).toBe('Plan');
    expect(container.querySelectorAll('li input[type=checkbox]')).toHaveLength(2);
  });

  it('shows verdicts as worded badges', () => {
    const { container } = render(Reports, { groups: groupReports([report('reviewer', 1, 'VERDICT: CHANGES_REQUESTED', 'CHANGES_REQUESTED')]) });
    expect(container.querySelector('.badge')?.textContent).toBe('Changes requested');
  });
});

describe('ReportList (review screen)', () => {
  it('renders the reports as markdown with verdict badges', () => {
    const { container } = render(ReportList, { reports: [report('reviewer', 1, '## Review\n\nLooks **fine**.\n\n```go\nfunc f() {}\n```', 'APPROVE')] });
    expect(container.querySelector('h3 .badge')?.textContent).toBe('Approved');
    expect(container.querySelector('h4')?.textContent).toBe('Review');
    expect(container.querySelector('strong')?.textContent).toBe('fine');
    expect(container.textContent).not.toContain('## Review');
    expect(container.querySelector('pre.code')?.textContent).toContain('func f() {}');
  });
});
