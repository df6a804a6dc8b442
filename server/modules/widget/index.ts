/** The widget module: the website chat widget's public API and its visitors. */
export { WidgetService } from './widget.service';
