from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from accounts.ip import client_ip
from accounts.language import language_on_login
from accounts.services import user_ip_record


@receiver(user_logged_in, dispatch_uid="accounts_record_login_ip")
def record_login_ip(sender, request, user, **kwargs) -> None:
    ip = client_ip(request) if request is not None else None
    if ip:
        user_ip_record(user=user, ip=ip)


@receiver(user_logged_in, dispatch_uid="accounts_language_on_login")
def keep_chosen_language(sender, request, user, **kwargs) -> None:
    language_on_login(request, user)
