import { Toaster } from '@/components/ui/sonner';

export default Toaster;
