import { Check } from 'lucide-react';
import { toast } from 'sonner';
import type { CurrentUser } from '@common/api/users';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { useUpdateProfile } from '../api/update-profile';
import { PRESET_AVATARS } from '../lib/avatars';

/** "Choose Avatar": a 3-column grid of preset avatars, saved on click. */
export function AvatarPicker({ user }: { user: CurrentUser }) {
  const update = useUpdateProfile();

  const choose = (url: string) => {
    if (url === user.avatarUrl) return;
    update.mutate(
      { fullName: user.name, avatarUrl: url, phone: user.phone, company: user.company },
      {
        onSuccess: () => toast.success('Avatar Updated'),
        onError: () => toast.error('Update Failed', { description: 'Failed to update profile. Please try again.' }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Choose Avatar</CardTitle>
        <CardDescription>Pick the picture shown next to your name.</CardDescription>
      </CardHeader>
      <CardContent>
        <div role="radiogroup" aria-label="Choose Avatar" className="grid w-fit grid-cols-3 gap-3">
          {PRESET_AVATARS.map((avatar) => {
            const selected = user.avatarUrl === avatar.url;
            return (
              <button
                key={avatar.url}
                type="button"
                role="radio"
                aria-checked={selected}
                aria-label={`Avatar ${avatar.name}`}
                disabled={update.isPending}
                onClick={() => choose(avatar.url)}
                className={cn(
                  'relative size-16 overflow-hidden rounded-full border-2 transition focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none disabled:opacity-60',
                  selected ? 'border-primary' : 'border-transparent hover:border-muted-foreground/40',
                )}
              >
                <img src={avatar.url} alt="" className="size-full" />
                {selected ? (
                  <span className="absolute inset-0 flex items-center justify-center bg-black/40">
                    <Check aria-hidden className="size-6 text-white" />
                  </span>
                ) : null}
              </button>
            );
          })}
        </div>
      </CardContent>
    </Card>
  );
}
