import { toast } from 'sonner';
import type { Feedback } from '../lib/feedback';

export const showSuccess = (feedback: Feedback) => toast.success(feedback.title, { description: feedback.description });
export const showError = (feedback: Feedback) => toast.error(feedback.title, { description: feedback.description });
