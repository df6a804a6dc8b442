/**
 * The report-emails module (issue 16 §5; docs/insights.md, "Reports by e-mail"): the daily report
 * (administrators with Daily Reports on) and the weekly report (everyone with Weekly Reports on; a
 * client user's covers their own client), e-mailed by recurring jobs once per recipient and period
 * whatever the number of instances. Owns `report_deliveries`; reads the insights, the recipients
 * and the outbox through the ports app.ts fills in.
 */
export { ReportEmailsService, reportedPeriod, type ReportEmailsDeps, type ReportEmailsPorts, type ReportRecipient, type ReportRun } from './report-emails.service';
export type { ReportKind } from './report-emails.repository';
export { dailyReportJob, weeklyReportJob } from './report-emails.jobs';
