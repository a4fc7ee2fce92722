// DiagService and NavService: the window's diagnostics and the requests from
// outside it (tray, second launch, notification click) (Go: app/diag.go,
// app/nav.go).
import type { FrontendError, UIRequest, UIView } from './types';

export interface WindowApi {
  'DiagService.ReportError': (error: FrontendError) => Promise<void>;
  'DiagService.Snapshot': (seq: number, text: string) => Promise<void>;
  'NavService.Ready': () => Promise<UIRequest[]>;
  'NavService.Shown': (seq: number, view: UIView) => Promise<void>;
}
